// Unit tests of the pure helpers of rope-viz-present.js: the presenter's sizes and its map of paper heights.
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./load.js");

const present = load("rope-viz-present.js", "RopeVizPresent");
const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

test("presenterSize doubles the page at 1080 px and lays the plot out alike at 720 px", () => {
  const full = present.presenterSize(1920, 1080, 0.69);
  assert.deepEqual(JSON.parse(JSON.stringify(full)),
    { scale: 2, zoom: 2, width: 662, height: 540, screenWidth: 1324, screenHeight: 1080 });
  const small = present.presenterSize(1280, 720, 0.69);
  close(small.scale, 4 / 3);
  assert.equal(small.width, 662);
  assert.equal(small.height, 540);
  // Both are 16:9: scaled by the width as well, they are laid out alike.
  assert.deepEqual(present.presenterSize(1920, 1080, 0.69, true), full);
  assert.deepEqual(present.presenterSize(1280, 720, 0.69, true), small);
});

test("presenterSize by width lays a 4:3 screen out as a 16:9 screen as wide", () => {
  const byHeight = present.presenterSize(1024, 768, 0.6);
  assert.ok(byHeight.width < 0.6 * 960); // narrower than the plot of that share at 1920 x 1080 (576 px)
  [0.69, 0.64, 0.6].forEach((share) => {
    const size = present.presenterSize(1024, 768, share, true);
    close(size.scale, (2 * 1024) / 1920);
    assert.equal(size.zoom, size.scale); // the controls as the plot's text
    // the plot's width in its own px is the one at 1920 x 1080 (within a px of rounding); it is taller
    assert.ok(Math.abs(size.width - present.presenterSize(1920, 1080, share).width) <= 1);
    assert.equal(size.height, Math.floor(768 / size.scale));
    assert.ok(size.height > 540);
  });
});

test("stackedSize puts the plot across a screen taller than wide, no taller than on the page", () => {
  // A phone held upright: 390 px across, the plot laid out 640 px wide and scaled down to the width.
  const phone = present.stackedSize(390, 844, 600, 0.6, 640);
  close(phone.scale, 390 / 640);
  assert.equal(phone.width, 640);
  assert.equal(phone.height, 600); // the page's height: 0.6 of the screen would be taller
  assert.equal(phone.screenHeight, Math.ceil(600 * phone.scale));
  assert.equal(phone.zoom, 1); // the controls never smaller than on the page
  assert.ok(phone.stacked);
  assert.equal(phone.sideBySide, false); // laid out as on the page
  // A tablet: the plot's text larger than the page's; half the screen's height would be shorter than the
  // 540 px of a screen 1080 px high, so it is laid out that high, its two stacked panels side by side.
  const tablet = present.stackedSize(768, 1024, 700, 0.5, 640);
  close(tablet.scale, 768 / 640);
  assert.equal(tablet.zoom, tablet.scale);
  assert.ok((1024 * 0.5) / tablet.scale < 540);
  assert.equal(tablet.height, 540);
  assert.equal(tablet.sideBySide, true);
  // A plot shorter than that on the page keeps the page's height.
  assert.equal(present.stackedSize(768, 1024, 420, 0.5, 640).height, 420);
  assert.equal(present.stackedSize(768, 1024, 420, 0.5, 640).sideBySide, false);
  // A tall narrow window on a large screen: scaled as the other view would be on a screen as high, at most.
  const tall = present.stackedSize(1000, 1100, 640, 0.6, 640);
  close(tall.scale, Math.min((2 * 1100) / 1080, 1000 / 640));
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


test("phoneSize lays a plot the page narrows out as on the page, across the whole screen", () => {
  const phone = present.phoneSize(390, 760, 480);
  close(phone.scale, 390 / 480);
  assert.equal(phone.width, 480);
  assert.equal(phone.height, 760);
  assert.equal(phone.screenHeight, Math.ceil(760 * 390 / 480));
  assert.equal(phone.sideBySide, false);
  assert.equal(phone.zoom, 1);
  // Larger than on the page, where the same layout is as wide as the page's column (332 px).
  assert.ok(phone.scale > 332 / 480);
});
