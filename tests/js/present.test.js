// Unit tests of the pure helpers of rope-viz-present.js: the presenter's sizes and its map of paper heights.
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./load.js");

const present = load("rope-viz-present.js", "RopeVizPresent");
const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

test("presenterSize doubles the page at 1080 px and lays the plot out alike at 720 px", () => {
  const full = present.presenterSize(1920, 1080, 0.69);
  assert.deepEqual(JSON.parse(JSON.stringify(full)), { scale: 2, width: 662, height: 540, screenWidth: 1324 });
  const small = present.presenterSize(1280, 720, 0.69);
  close(small.scale, 4 / 3);
  assert.equal(small.width, 662);
  assert.equal(small.height, 540);
});

test("paperMap keeps the gaps between subplots, and what lies beyond them, at their height in px", () => {
  // Two subplots with a 200 px gap on a 1000 px plot area, shown on 500 px.
  const map = present.paperMap([[0.6, 1], [0, 0.4]], 1000, 500);
  close(map(0), 0);
  close(map(1), 1);
  close(map(0.6) - map(0.4), 200 / 500);
  close(map(0.2), 0.15); // inside a subplot: the subplots share the 300 px left
  close(map(1.05) - 1, 50 / 500);
  close(map(-0.1), -100 / 500);
});

test("paperMap merges overlapping subplots and leaves a plot that does not shrink as it is", () => {
  const map = present.paperMap([[0.56, 1], [0.6, 0.97], [0, 0.36]], 1000, 500);
  close(map(0.56) - map(0.36), 200 / 500);
  close(map(0.97), 1 - (0.03 * 1000 * ((500 - 200) / 800)) / 500);
  const same = present.paperMap([[0, 0.4], [0.6, 1]], 500, 600);
  [0, 0.3, 0.5, 1, 1.2].forEach((y) => close(same(y), y));
});
