// Unit tests of the pure helpers of rope-viz-direct.js: colours, axis mapping, paths, heatmap edges, labels,
// colour bars.
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./load.js");

const direct = load("rope-viz-direct.js", "RopeVizDirect");
// Values made in the script's own context have that context's prototypes: compare them as plain data.
const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);
const plain = (value) => JSON.parse(JSON.stringify(value));

// A small deterministic generator, so a failure names a case that can be run again.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test("parseColor reads hex and rgb() colours as Plotly writes them", () => {
  assert.deepEqual(plain(direct.parseColor("#1f77b4")), [31, 119, 180, 1]);
  assert.deepEqual(plain(direct.parseColor("#ABC")), [170, 187, 204, 1]);
  assert.deepEqual(plain(direct.parseColor("rgb(1, 2, 3)")), [1, 2, 3, 1]);
  assert.deepEqual(plain(direct.parseColor("rgba(10,20,30,0.5)")), [10, 20, 30, 0.5]);
});

test("parseColor leaves colour names to the browser", () => {
  assert.throws(() => direct.parseColor("rebeccapurple"), /DOM is not available/);
});

test("colorScale gives the stops' colours at the stops and interpolates linearly between", () => {
  const stops = [[0, "#000000"], [0.25, "#ff0000"], [1, "#ffffff"]];
  const scale = direct.colorScale(stops, -2, 2);
  assert.deepEqual(plain(scale(-2)), [0, 0, 0, 1]);
  assert.deepEqual(plain(scale(-1)), [255, 0, 0, 1]);
  assert.deepEqual(plain(scale(2)), [255, 255, 255, 1]);
  // Halfway from the second stop (value -1) to the third (value 2).
  assert.deepEqual(plain(scale(0.5)), [255, 127.5, 127.5, 1]);
});

test("colorScale clamps to its range and gives nothing for a missing value", () => {
  const scale = direct.colorScale([[0, "#102030"], [1, "#405060"]], 0, 10);
  assert.deepEqual(plain(scale(-5)), plain(scale(0)));
  assert.deepEqual(plain(scale(50)), plain(scale(10)));
  assert.equal(scale(null), null);
  assert.equal(scale(NaN), null);
  // An empty range (zmin = zmax) shows the middle colour, as Plotly does.
  assert.deepEqual(plain(direct.colorScale([[0, "#000000"], [1, "#ffffff"]], 3, 3)(3)), [127.5, 127.5, 127.5, 1]);
});

test("colorScale agrees with an independent piecewise-linear interpolation", () => {
  const next = random(7);
  for (let trial = 0; trial < 200; trial++) {
    const count = 2 + Math.floor(next() * 4);
    const inner = Array.from({ length: count - 2 }, next).sort((a, b) => a - b);
    const positions = [0, ...inner, 1];
    const colors = positions.map(() => [0, 1, 2].map(() => Math.floor(next() * 256)));
    const hex = colors.map((rgb) => "#" + rgb.map((c) => c.toString(16).padStart(2, "0")).join(""));
    const low = next() * 10 - 5;
    const high = low + 0.1 + next() * 10;
    const value = low - 1 + next() * (high - low + 2);
    const got = direct.colorScale(positions.map((p, k) => [p, hex[k]]), low, high)(value);
    const t = Math.min(1, Math.max(0, (value - low) / (high - low)));
    let k = positions.findIndex((p, j) => j > 0 && t <= p) - 1;
    if (k < 0) k = 0;
    const f = positions[k + 1] > positions[k] ? (t - positions[k]) / (positions[k + 1] - positions[k]) : 0;
    colors[k].forEach((channel, c) => {
      const want = channel + f * (colors[k + 1][c] - channel);
      assert.ok(Math.abs(got[c] - want) < 1e-9, `trial ${trial}: channel ${c} is ${got[c]}, not ${want}`);
    });
  }
});

test("contrast picks white where it contrasts more than Plotly's grey #444 (WCAG ratios), as Plotly does", () => {
  assert.equal(direct.contrast([0, 0, 0, 1]), "rgb(255, 255, 255)");
  assert.equal(direct.contrast([255, 255, 255, 1]), "rgb(68, 68, 68)");
  // Relative luminance 0.7152 for pure green: light; 0.2126 for pure red: dark.
  assert.equal(direct.contrast([0, 255, 0, 1]), "rgb(68, 68, 68)");
  assert.equal(direct.contrast([255, 0, 0, 1]), "rgb(255, 255, 255)");
  // The ratios are equal at luminance sqrt(1.05 * (L#444 + 0.05)) - 0.05 = 0.2864: grey 146 (0.2876) is light,
  // grey 145 (0.2832) dark.
  assert.equal(direct.contrast([146, 146, 146, 1]), "rgb(68, 68, 68)");
  assert.equal(direct.contrast([145, 145, 145, 1]), "rgb(255, 255, 255)");
  // A cell of chapter 1 on which Plotly writes white, though its brightness (299 r + 587 g + 114 b) / 1000 is
  // 130.6, above the 128 of the rule Plotly used before.
  assert.equal(direct.contrast([70, 146, 209, 1]), "rgb(255, 255, 255)");
});

test("cssColor rounds each channel", () => {
  assert.equal(direct.cssColor([12.4, 12.6, 255, 0.3]), "rgb(12, 13, 255)");
});

test("extent spans nested arrays and skips what is not a finite number", () => {
  assert.deepEqual(plain(direct.extent([[3, null], [NaN, -2, [7]], "9"])), [-2, 7]);
  const empty = direct.extent([]);
  assert.equal(empty[0], Infinity);
  assert.equal(empty[1], -Infinity);
});

test("axisPixel maps an x range onto 0..length and a y range onto length..0", () => {
  const x = direct.axisPixel("x", [-1, 3], 400);
  assert.equal(x(-1), 0);
  assert.equal(x(3), 400);
  assert.equal(x(1), 200);
  const y = direct.axisPixel("y", [0, 10], 300);
  assert.equal(y(0), 300);
  assert.equal(y(10), 0);
  assert.equal(y(2.5), 225);
  // A reversed axis runs the other way.
  assert.equal(direct.axisPixel("x", [5, 0], 100)(4), 20);
});

test("axisPixel is affine: equal steps in value are equal steps in pixels", () => {
  const next = random(11);
  for (let trial = 0; trial < 100; trial++) {
    const low = next() * 100 - 50;
    const range = [low, low + 1 + next() * 100];
    const map = direct.axisPixel(next() < 0.5 ? "x" : "y", range, 50 + next() * 800);
    const a = range[0] + next() * 50;
    const step = next() * 10;
    const first = map(a + step) - map(a);
    const second = map(a + 2 * step) - map(a + step);
    assert.ok(Math.abs(first - second) < 1e-9, `trial ${trial}`);
  }
});

test("dataToPixel takes the base-ten logarithm on a log axis", () => {
  // Plotly's range of a log axis is in exponents: [0, 3] spans 1 to 1000.
  const log = direct.dataToPixel("log", direct.axisPixel("x", [0, 3], 300));
  assert.ok(Math.abs(log(1) - 0) < 1e-9);
  assert.ok(Math.abs(log(10) - 100) < 1e-9);
  assert.ok(Math.abs(log(1000) - 300) < 1e-9);
  assert.ok(Number.isNaN(log(0)));
  assert.ok(Number.isNaN(log(-5)));
  const linear = direct.dataToPixel("linear", direct.axisPixel("x", [0, 3], 300));
  assert.equal(linear(1), 100);
  assert.equal(linear("2"), 200);
  for (const missing of [null, undefined, ""]) {
    assert.ok(Number.isNaN(linear(missing)), String(missing));
  }
});

test("segments break a line at every missing point", () => {
  const a = [0, 0];
  const b = [1, 1];
  const c = [2, 0];
  assert.deepEqual(plain(direct.segments([null, a, b, null, null, c, null])), [[a, b], [c]]);
  assert.deepEqual(plain(direct.segments([a, b, c])), [[a, b, c]]);
  assert.deepEqual(plain(direct.segments([null, null])), []);
});

test("pathOf writes Plotly's path format with two decimals", () => {
  assert.equal(direct.pathOf([[0, 0], [1.234, 5.678], [10, -2.005]]), "M0,0L1.23,5.68L10,-2");
});

test("edges put cell edges halfway between centres and half a step beyond the ends", () => {
  assert.deepEqual(plain(direct.edges([0, 1, 2])), [-0.5, 0.5, 1.5, 2.5]);
  assert.deepEqual(plain(direct.edges([4])), [3.5, 4.5]);
  assert.deepEqual(plain(direct.edges([0, 2, 6])), [-1, 1, 4, 8]);
  const next = random(3);
  for (let trial = 0; trial < 100; trial++) {
    const centers = [next()];
    const n = 2 + Math.floor(next() * 10);
    while (centers.length < n) centers.push(centers[centers.length - 1] + 0.01 + next());
    const out = direct.edges(centers);
    assert.equal(out.length, n + 1);
    centers.forEach((center, k) => assert.ok(out[k] < center && center < out[k + 1], `trial ${trial}, cell ${k}`));
  }
});

test("translation sums the translate() steps of a transform", () => {
  assert.deepEqual(plain(direct.translation("translate(10,20) translate(5)")), [15, 20]);
  assert.deepEqual(plain(direct.translation("translate(1.5, -2) rotate(45) translate(1e-1 2)")), [1.6, 0]);
  assert.deepEqual(plain(direct.translation(null)), [0, 0]);
});

test("labelShape tells which labels can be written without Plotly", () => {
  assert.equal(direct.labelShape("0.25 rad", null), "plain");
  assert.equal(direct.labelShape(12, null), "plain");
  assert.equal(direct.labelShape("10<sup>4</sup>", null), "power");
  assert.equal(direct.labelShape("<b>bold</b>", null), null);
  assert.equal(direct.labelShape("a &amp; b", null), null);
  // Markup like the element's own, with other words, is written word by word.
  const element = { getAttribute: () => "<b>old</b> text" };
  assert.equal(direct.labelShape("<b>new</b> words", element), "same");
  assert.equal(direct.labelShape("<i>new</i> words", element), null);
});

test("colorbarKeepsLayout leaves the layout as it is when the widest label keeps its width", () => {
  // A bar as Plotly lays it out with no title: 2 xpad + thickness + outline (35) and a column of 24 pixels.
  const bar = { outer: 59, column: 24, fixed: 35, titleBeside: false, room: null };
  assert.equal(direct.colorbarKeepsLayout(bar, 0), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 0.004), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 0.5), false);
  assert.equal(direct.colorbarKeepsLayout(bar, -0.5), false);
  assert.equal(direct.colorbarKeepsLayout(bar, NaN), false);
  // Labels inside the bar take no width of it, whatever they say.
  assert.equal(direct.colorbarKeepsLayout({ ...bar, column: null }, 30), true);
  assert.equal(direct.colorbarKeepsLayout({ ...bar, column: null }, NaN), true);
});

test("colorbarKeepsLayout lets a bar change width only with room to spare at the figure's edge", () => {
  const bar = { outer: 59, column: 24, fixed: 35, titleBeside: false, room: 10 };
  assert.equal(direct.colorbarKeepsLayout(bar, -6), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 8), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 8.5), false);
  // A bar that sets the margin (no room: it fills the margin up to its pad) narrows it when it narrows.
  assert.equal(direct.colorbarKeepsLayout({ ...bar, room: 0 }, -6), false);
  assert.equal(direct.colorbarKeepsLayout({ ...bar, room: Infinity }, 100), true);
});

test("colorbarKeepsLayout: a title wider than the labels holds the bar's width until they outgrow it", () => {
  // The title needs 12 pixels more than the column of labels: the bar is 71 pixels wide, not 59.
  const bar = { outer: 71, column: 24, fixed: 35, titleBeside: false, room: null };
  assert.equal(direct.colorbarKeepsLayout(bar, -10), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 11.9), true);
  assert.equal(direct.colorbarKeepsLayout(bar, 12.5), false);
  // A title beside the labels moves with them.
  assert.equal(direct.colorbarKeepsLayout({ ...bar, titleBeside: true }, 1), false);
  assert.equal(direct.colorbarKeepsLayout({ ...bar, titleBeside: true }, 0), true);
});

test("fitHeld shows the whole of both own ranges at one scale, widening the axis with room to spare", () => {
  const held = { xaxis: [-1.25, 1.25], yaxis: [-1.25, 1.25] };
  // A wide subplot, 600 by 200 px: y fills its 200 px, x widens to 600 px at the same px per unit.
  const wide = direct.fitHeld(held, { xaxis: { length: 600 }, yaxis: { scaleanchor: "xaxis", length: 200 } });
  wide.xaxis.forEach((value, k) => close(value, [-3.75, 3.75][k]));
  wide.yaxis.forEach((value, k) => close(value, [-1.25, 1.25][k]));
  const tall = direct.fitHeld(held, { xaxis: { length: 100 }, yaxis: { scaleanchor: "xaxis", length: 300 } });
  tall.xaxis.forEach((value, k) => close(value, [-1.25, 1.25][k]));
  tall.yaxis.forEach((value, k) => close(value, [-3.75, 3.75][k]));
  // Equal px per unit on both axes, and every own range inside the one shown, for any shape.
  [[50, 400], [400, 50], [333, 333], [1, 999]].forEach(([width, height]) => {
    const fitted = direct.fitHeld({ xaxis: [0, 4], yaxis: [10, 11] },
      { xaxis: { length: width }, yaxis: { scaleanchor: "xaxis", length: height } });
    close(width / (fitted.xaxis[1] - fitted.xaxis[0]), height / (fitted.yaxis[1] - fitted.yaxis[0]));
    assert.ok(fitted.xaxis[0] <= 1e-9 && fitted.xaxis[1] >= 4 - 1e-9 && fitted.yaxis[0] <= 10 + 1e-9);
    assert.ok(fitted.yaxis[1] >= 11 - 1e-9);
  });
});

test("fitHeld follows the scale ratio and a reversed range, and leaves unheld or chained axes alone", () => {
  // A unit of y spans twice the px of a unit of x.
  const ratio = direct.fitHeld({ xaxis2: [0, 10], yaxis2: [5, 0] },
    { xaxis2: { length: 100 }, yaxis2: { scaleanchor: "xaxis2", scaleratio: 2, length: 100 } });
  close(100 / (ratio.xaxis2[1] - ratio.xaxis2[0]) * 2, 100 / Math.abs(ratio.yaxis2[1] - ratio.yaxis2[0]));
  assert.ok(ratio.yaxis2[0] > ratio.yaxis2[1], "the reversed range stays reversed");
  const unheld = direct.fitHeld({ xaxis: [0, 1] }, { xaxis: { length: 10 }, yaxis: { length: 10 } });
  assert.deepEqual(Object.keys(unheld), []);
  const chained = direct.fitHeld({ xaxis: [0, 1], yaxis: [0, 1], xaxis2: [0, 1] }, {
    xaxis: { length: 10, scaleanchor: "xaxis2" }, yaxis: { length: 10, scaleanchor: "xaxis" }, xaxis2: { length: 10 } });
  assert.deepEqual(Object.keys(chained).sort(), ["xaxis", "xaxis2"]);
});

test("fitHeld leaves the ranges of axes that Plotly constrains by their domain", () => {
  const held = { xaxis: [0, 4], yaxis: [0, 4] };
  const domain = direct.fitHeld(held,
    { xaxis: { length: 400, constrain: "domain" }, yaxis: { scaleanchor: "xaxis", length: 100, constrain: "domain" } });
  assert.deepEqual(Object.keys(domain), []);
  const range = direct.fitHeld(held,
    { xaxis: { length: 400, constrain: "range" }, yaxis: { scaleanchor: "xaxis", length: 100, constrain: "range" } });
  range.xaxis.forEach((value, k) => close(value, [-6, 10][k]));
});
