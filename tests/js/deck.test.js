// Unit tests of the pure helpers of rope-viz-deck.js: the slide a URL names, and what each key does.
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./load.js");

const deck = load("rope-viz-deck.js", "RopeVizDeck");

test("slideIndex reads #slide-N as the index N - 1 within the deck", () => {
  assert.equal(deck.slideIndex("#slide-1", 33), 0);
  assert.equal(deck.slideIndex("#slide-7", 33), 6);
  assert.equal(deck.slideIndex("#slide-33", 33), 32);
});

test("slideIndex falls back to the first slide for anything else", () => {
  for (const hash of ["", "#", "#slide-", "#slide-0", "#slide-34", "#slide-007", "#slide--2", "#slide-2.5",
    "#slide-1e3", "#slide-abc", "#slide-99999999999999999999", "#Slide-2", "#slide-2x", "#intro"]) {
    assert.equal(deck.slideIndex(hash, 33), 0, hash);
  }
});

test("keyAction: Page Down and Page Up always change the slide, whatever has the focus", () => {
  for (const target of [null, "control", "button"]) {
    assert.equal(deck.keyAction("PageDown", false, target), 1);
    assert.equal(deck.keyAction("PageUp", false, target), -1);
    assert.equal(deck.keyAction("PageDown", true, target), 1);
  }
});

test("keyAction: arrow keys, Home and End move the deck, but a focused slider keeps them", () => {
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
  for (const [key, action] of Object.entries(keys)) {
    assert.equal(deck.keyAction(key, false, null), action, key);
    assert.equal(deck.keyAction(key, false, "button"), action, key);
    assert.equal(deck.keyAction(key, false, "control"), null, key);
  }
});

test("keyAction: Space goes on, Shift+Space back, and a focused button is pressed instead", () => {
  assert.equal(deck.keyAction(" ", false, null), 1);
  assert.equal(deck.keyAction(" ", true, null), -1);
  assert.equal(deck.keyAction(" ", false, "control"), 1);
  assert.equal(deck.keyAction(" ", false, "button"), null);
});

test("keyAction: B and . blank the screen, also on a slider; other keys are the page's", () => {
  for (const key of ["b", "B", "."]) {
    for (const target of [null, "control", "button"]) {
      assert.equal(deck.keyAction(key, false, target), "blank");
    }
  }
  for (const key of ["a", "Enter", "Escape", "Tab", "F5"]) {
    assert.equal(deck.keyAction(key, false, null), null, key);
  }
});
