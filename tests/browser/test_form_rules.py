"""A form's rules across its fields, said before the tap (`static/js/rules.js`, issue 53): each
rule the pages declare, checked on a small form in the browser, as a phone would meet it. The
walker (`tests/walker.py`) reads the same attributes; the server judges every command anyway."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.browser.kit import PHONE

RULES = (Path(__file__).parents[2] / "static" / "js" / "rules.js").read_text()

FORM = """<!doctype html><html><body><form id="f">
<div id="pick" data-pick="2" data-distinct data-shared="passport" data-rule="two">
  <select name="a"><option value="">-</option><option value="left">L</option>
    <option value="hands" data-covers="left right">H</option><option value="passport">P</option></select>
  <select name="b"><option value="">-</option><option value="left">L</option>
    <option value="hands" data-covers="left right">H</option><option value="passport">P</option></select>
  <select name="c"><option value="">-</option><option value="left">L</option>
    <option value="c9">C9</option></select>
</div>
<fieldset id="total" data-total="0-@played" data-rule="at most played">
  <input name="played" type="number" data-points="0" value="3">
  <input name="won" type="number" value="0"><input name="lost" type="number" value="0">
</fieldset>
<div data-changed data-rule="change it"><input name="pv" type="number" value="36"></div>
<select name="equipment"><option value="">-</option><option value="armour">A</option>
  <option value="powers">P</option></select>
<input name="armour" type="number" data-enabled-when="equipment:armour">
<select name="power1" data-required-when="equipment:powers" data-unique="power" data-rule="copies">
  <option value="">-</option><option value="fear" data-copies="1">F</option></select>
<select name="power2" data-unique="power" data-rule="copies">
  <option value="">-</option><option value="fear" data-copies="1">F</option></select>
<select name="found" data-limits="to"><option value="">-</option>
  <option value="axe" data-allows="hands back">Axe</option><option value="ammo" data-allows="c1 back">Ammo</option></select>
<select name="to"><option value="">-</option><option value="hands">H</option>
  <option value="c1">C1</option><option value="back" data-of="axe">B (axe)</option>
  <option value="back" data-of="ammo">B (ammo)</option></select>
<input name="exp" type="number" value="25"><input name="increases" type="number" min="0" data-max-from="exp/10">
<input name="team" data-unique="team-name" data-taken="[&#34;Nabos&#34;, &#34;Les Titans&#34;]" data-rule="taken">
<fieldset data-least="1" data-rule="one at least"><input type="checkbox" name="g" value="1" checked>
  <input type="checkbox" name="g" value="2"></fieldset>
<select name="slot_7"><option value="outfit" selected>O</option><option value="right">R</option></select>
<select name="token_0"><option value="c1">C1</option>
  <option value="sneakers" data-needs="slot_7:outfit backpack passport">S</option></select>
<fieldset data-least="2" data-most="2" data-rule="exactly two"><input type="checkbox" name="d" value="1" checked>
  <input type="checkbox" name="d" value="2" checked><input type="checkbox" name="d" value="3"></fieldset>
</form></body></html>"""


def valid(page: Page, name: str) -> str:
    return str(page.evaluate(f"() => document.querySelector('[name={name}]').validationMessage"))


def test_each_rule_holds_the_form_back_with_its_own_words(browser: Browser) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.set_content(FORM)
    page.add_script_tag(content=RULES)
    page.evaluate("() => document.dispatchEvent(new Event('DOMContentLoaded'))")
    form_ok = "() => document.getElementById('f').checkValidity()"
    # Exactly two, never one place twice; a place covering others' greys them out.
    assert valid(page, "a") == "two"
    page.select_option("[name=a]", "hands")
    assert page.is_disabled("[name=b] option[value=left]")
    assert not page.is_disabled("[name=b] option[value=passport]")
    page.select_option("[name=b]", "passport")
    assert valid(page, "a") == ""
    assert page.is_disabled("[name=c] option[value=left]")  # the hands hold it
    assert page.is_disabled("[name=c] option[value=c9]")  # two kept: a third is not picked
    page.select_option("[name=b]", "")
    assert page.get_attribute("#pick", "class") == "rule-broken"  # touched: its words shown
    page.select_option("[name=b]", "passport")
    assert page.get_attribute("#pick", "class") == ""
    # A total bounded by another field.
    page.fill("[name=won]", "2")
    page.fill("[name=lost]", "2")
    assert valid(page, "won") == "at most played"  # said on a field the rule counts
    page.fill("[name=played]", "4")
    assert valid(page, "won") == ""
    # A correction that changes nothing is none.
    assert valid(page, "pv") == "change it"
    page.fill("[name=pv]", "30")
    assert valid(page, "pv") == ""
    # A field counted only for some choices; one asked only for some.
    assert page.is_disabled("[name=armour]")
    page.select_option("[name=equipment]", "armour")
    assert page.is_enabled("[name=armour]")
    page.select_option("[name=equipment]", "powers")
    assert page.is_disabled("[name=armour]")
    assert page.evaluate("() => document.querySelector('[name=power1]').required") is True
    assert page.evaluate(form_ok) is False
    page.select_option("[name=power1]", "fear")
    page.select_option("[name=power2]", "fear")  # one copy, held twice
    assert valid(page, "power2") == "copies"
    assert page.evaluate(form_ok) is False
    page.select_option("[name=power2]", "")
    # A menu that limits another's options.
    page.select_option("[name=found]", "axe")
    assert page.is_disabled("[name=to] option[value=c1]")
    assert page.is_enabled("[name=to] option[data-of=axe]")  # one value, two owners: its own
    assert page.is_disabled("[name=to] option[data-of=ammo]")
    page.select_option("[name=to]", "hands")
    page.select_option("[name=found]", "ammo")
    assert page.input_value("[name=to]") == ""  # what it no longer allows is let go
    assert page.is_disabled("[name=to] option[data-of=axe]")
    assert page.is_enabled("[name=to] option[data-of=ammo]")
    page.select_option("[name=to]", "c1")
    # A number bounded by another's value.
    page.fill("[name=increases]", "3")
    assert page.evaluate(form_ok) is False  # 25 EXP: 2 increases at most
    page.fill("[name=increases]", "2")
    assert page.evaluate(form_ok) is True
    # A name another already holds, whatever its case and spaces (an outside walker's find).
    page.fill("[name=team]", "  les   TITANS ")
    assert valid(page, "team") == "taken"
    assert page.evaluate(form_ok) is False
    page.fill("[name=team]", "Les Titans du Nord")
    assert valid(page, "team") == ""
    assert page.evaluate(form_ok) is True
    # One box ticked at least: none ticked holds the form back, in its words.
    page.uncheck("[name=g][value='1']")
    assert valid(page, "g") == "one at least"
    assert page.evaluate(form_ok) is False
    page.check("[name=g][value='2']")
    assert page.evaluate(form_ok) is True
    # Exactly two boxes (the cards to discard): a third, or one only, holds the form back.
    page.check("[name=d][value='3']")
    assert valid(page, "d") == "exactly two"
    assert page.evaluate(form_ok) is False
    page.uncheck("[name=d][value='1']")
    assert page.evaluate(form_ok) is True
    page.uncheck("[name=d][value='2']")
    assert valid(page, "d") == "exactly two"
    page.check("[name=d][value='1']")
    assert page.evaluate(form_ok) is True
    # A token on the sneakers while they are worn (`data-needs="slot_7:outfit ..."`): the
    # sneakers taken in a hand grey the option out, and a token held there goes (an outside
    # walker's find, issue 53: refused by the server only).
    page.select_option("[name=token_0]", "sneakers")
    page.select_option("[name=slot_7]", "right")
    assert page.is_disabled("[name=token_0] option[value=sneakers]")
    assert page.evaluate("() => document.querySelector('[name=token_0]').value") != "sneakers"
    page.select_option("[name=slot_7]", "outfit")
    assert page.is_enabled("[name=token_0] option[value=sneakers]")
