// Unit tests of the pure helpers of rope-viz-figures.js: payload decoding, theme colours, layout paths.
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./load.js");

const figures = load("rope-viz-figures.js", "RopeVizFigures");
const plain = (value) => JSON.parse(JSON.stringify(value));

// Two sliders of 3 and 2 steps: state (i, j) is at 2 i + j.
function payload() {
  const states = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 2; j++) {
      states.push({ t: [{ y: { $ref: j } }, { x: [i, j] }], l: { "xaxis.range": [0, i + 1] }, r: "r".repeat(1 + i + j) });
    }
  }
  return {
    figure: { data: [{ y: { $ref: 0 } }, { x: [0, 0], marker: { color: { $ref: 1 } } }], layout: {} },
    controls: [{ texts: ["a", "b", "c"] }, { texts: ["off", "on"] }],
    strides: [2, 1],
    states,
    arrays: [[1, 2, 3], [4, 5, 6]],
  };
}

test("decodePayload resolves shared arrays in the figure and in every state", () => {
  const source = figures.decodePayload(payload());
  assert.deepEqual(plain(source.figure.data), [{ y: [1, 2, 3] }, { x: [0, 0], marker: { color: [4, 5, 6] } }]);
  assert.deepEqual(plain(source.state([2, 1])), { t: [{ y: [4, 5, 6] }, { x: [2, 1] }], l: { "xaxis.range": [0, 3] }, r: "rrrr" });
  assert.deepEqual(plain(source.texts), [["a", "b", "c"], ["off", "on"]]);
});

test("decodePayload finds the state of every combination of slider indices", () => {
  const source = figures.decodePayload(payload());
  const seen = new Set();
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 2; j++) {
      const key = source.key([i, j]);
      assert.equal(key, String(2 * i + j));
      seen.add(key);
      assert.deepEqual(plain(source.state([i, j]).t[1]), { x: [i, j] });
    }
  }
  assert.equal(seen.size, 6);
});

test("decodePayload passes on the figure's narrowest width, or null for a payload without one", () => {
  assert.equal(figures.decodePayload(Object.assign(payload(), { narrowest: 480 })).narrowest, 480);
  assert.equal(figures.decodePayload(payload()).narrowest, null);
});

test("decodePayload lists the three longest readouts, longest first", () => {
  assert.deepEqual(plain(figures.decodePayload(payload()).longestReadouts), ["rrrr", "rrr", "rrr"]);
});

test("themeUpdate colours every cartesian axis and polar subplot, in either theme", () => {
  const layout = { xaxis: {}, yaxis2: {}, polar: {}, title: {} };
  const light = figures.themeUpdate(layout, false);
  const dark = figures.themeUpdate(layout, true);
  for (const update of [light, dark]) {
    for (const key of ["xaxis.gridcolor", "yaxis2.linecolor", "polar.angularaxis.gridcolor", "font.color",
      "modebar.color", "modebar.activecolor", "modebar.bgcolor"]) {
      assert.ok(key in update, key);
    }
    assert.ok(!Object.keys(update).some((key) => key.startsWith("title")));
    assert.equal(update.paper_bgcolor, "rgba(0,0,0,0)");
  }
  assert.notEqual(light["font.color"], dark["font.color"]);
  assert.notEqual(light["xaxis.gridcolor"], dark["xaxis.gridcolor"]);
  assert.notEqual(light["modebar.color"], dark["modebar.color"]);
});

test("setPath writes a dotted layout path, creating objects and arrays on the way", () => {
  const target = {};
  figures.setPath(target, "xaxis.range", [0, 1]);
  figures.setPath(target, "shapes[1].x0", 5);
  figures.setPath(target, "xaxis.title.text", "m");
  assert.deepEqual(plain(target), { xaxis: { range: [0, 1], title: { text: "m" } }, shapes: [null, { x0: 5 }] });
  assert.ok(Array.isArray(target.shapes));
});

const CONTROLS = [
  { name: "position", values: [0, 1, 2, 5, 10] },
  { name: "base", values: [100, 10000, 1000000] },
];

test("figureKey names a figure by its title, and a second one of the same title apart", () => {
  assert.equal(figures.figureKey("Multi-speed clocks (θ per pair)", []), "multi-speed-clocks-per-pair");
  assert.equal(figures.figureKey("Clocks", ["clocks"]), "clocks-2");
  assert.equal(figures.figureKey("Clocks", ["clocks", "clocks-2"]), "clocks-3");
  assert.equal(figures.figureKey("", []), "figure");
  assert.equal(figures.figureKey("θ", []), "figure");
});

test("formatState writes each control's name and value, and parseState reads them back", () => {
  const text = figures.formatState(CONTROLS, [3, 2]);
  assert.equal(text, "position:5,base:1000000");
  assert.deepEqual(plain(figures.parseState(text, CONTROLS, [0, 1])), [3, 2]);
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 3; j++) {
      const round = figures.parseState(figures.formatState(CONTROLS, [i, j]), CONTROLS, [0, 0]);
      assert.deepEqual(plain(round), [i, j]);
    }
  }
});

test("parseState snaps a value between steps to the nearer and keeps unnamed controls at their defaults", () => {
  assert.deepEqual(plain(figures.parseState("position:6", CONTROLS, [1, 1])), [3, 1]);
  assert.deepEqual(plain(figures.parseState("position:8", CONTROLS, [1, 1])), [4, 1]);
  assert.deepEqual(plain(figures.parseState("position:-3,base:1e9", CONTROLS, [1, 1])), [0, 2]);
  assert.deepEqual(plain(figures.parseState("base:1e4", CONTROLS, [2, 0])), [2, 1]);
});

test("parseState gives nothing for a malformed text or an unknown control", () => {
  for (const text of [null, "", "position", "position:", "position:abc", "size:3", "position:1,,base:100",
    "position:1;base:100", "position:Infinity", ":3"]) {
    assert.equal(figures.parseState(text, CONTROLS, [0, 0]), null, String(text));
  }
});
