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

test("fitHeld shows the whole of both own ranges at one scale, widening the axis with room to spare", () => {
  const held = { xaxis: [-1.25, 1.25], yaxis: [-1.25, 1.25] };
  // A wide subplot, 600 by 200 px: y fills its 200 px, x widens to 600 px at the same px per unit.
  const wide = present.fitHeld(held, { xaxis: { length: 600 }, yaxis: { scaleanchor: "xaxis", length: 200 } });
  wide.xaxis.forEach((value, k) => close(value, [-3.75, 3.75][k]));
  wide.yaxis.forEach((value, k) => close(value, [-1.25, 1.25][k]));
  const tall = present.fitHeld(held, { xaxis: { length: 100 }, yaxis: { scaleanchor: "xaxis", length: 300 } });
  tall.xaxis.forEach((value, k) => close(value, [-1.25, 1.25][k]));
  tall.yaxis.forEach((value, k) => close(value, [-3.75, 3.75][k]));
  // Equal px per unit on both axes, and every own range inside the one shown, for any shape.
  [[50, 400], [400, 50], [333, 333], [1, 999]].forEach(([width, height]) => {
    const fitted = present.fitHeld({ xaxis: [0, 4], yaxis: [10, 11] },
      { xaxis: { length: width }, yaxis: { scaleanchor: "xaxis", length: height } });
    close(width / (fitted.xaxis[1] - fitted.xaxis[0]), height / (fitted.yaxis[1] - fitted.yaxis[0]));
    assert.ok(fitted.xaxis[0] <= 1e-9 && fitted.xaxis[1] >= 4 - 1e-9 && fitted.yaxis[0] <= 10 + 1e-9);
    assert.ok(fitted.yaxis[1] >= 11 - 1e-9);
  });
});

test("fitHeld follows the scale ratio and a reversed range, and leaves unheld or chained axes alone", () => {
  // A unit of y spans twice the px of a unit of x.
  const ratio = present.fitHeld({ xaxis2: [0, 10], yaxis2: [5, 0] },
    { xaxis2: { length: 100 }, yaxis2: { scaleanchor: "xaxis2", scaleratio: 2, length: 100 } });
  close(100 / (ratio.xaxis2[1] - ratio.xaxis2[0]) * 2, 100 / Math.abs(ratio.yaxis2[1] - ratio.yaxis2[0]));
  assert.ok(ratio.yaxis2[0] > ratio.yaxis2[1], "the reversed range stays reversed");
  const unheld = present.fitHeld({ xaxis: [0, 1] }, { xaxis: { length: 10 }, yaxis: { length: 10 } });
  assert.deepEqual(Object.keys(unheld), []);
  const chained = present.fitHeld({ xaxis: [0, 1], yaxis: [0, 1], xaxis2: [0, 1] }, {
    xaxis: { length: 10, scaleanchor: "xaxis2" }, yaxis: { length: 10, scaleanchor: "xaxis" }, xaxis2: { length: 10 } });
  assert.deepEqual(Object.keys(chained).sort(), ["xaxis", "xaxis2"]);
});
