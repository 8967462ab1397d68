# Arbitre for a hosted server: slim, a user of its own, its own health check. Built and run by
# compose.yaml beside PostgreSQL and Caddy (HTTPS); checked in CI by tests/test_hosting.py.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WORKERS=2

WORKDIR /app
COPY pyproject.toml README.md ./
COPY server ./server
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
# Installed in place: the templates, the static files and the migrations stay beside the code.
RUN pip install --no-cache-dir -e ".[postgres]" \
    && useradd --system --uid 10001 --home-dir /app arbitre \
    && mkdir -p /app/data \
    && chown arbitre /app/data

USER arbitre
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
CMD ["sh", "-c", "exec python -m server serve --host 0.0.0.0 --port 8000 --workers \"$WORKERS\""]
