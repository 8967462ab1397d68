"""HTTP: pages for people, the JSON API, the event stream."""
