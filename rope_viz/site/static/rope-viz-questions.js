/* rope-viz questions: grade a self-check question in the page, with no kernel and no network.
 *
 * rope_viz.questions writes each question as a <form data-rope-viz-question="numeric|choice"> holding its
 * answer and its three feedback texts in data attributes. One listener on the document handles the Check of
 * every question (a submit: the button, or Enter in the answer box). It sets data-state on the form's
 * [data-rope-viz-feedback] element to "correct", "incorrect" or "invalid" (nothing to grade), shows the
 * matching text there (a polite live region, so screen readers announce it) and, unless the state is
 * "invalid", reveals the worked answer [data-rope-viz-solution].
 *
 * The number parser and the tolerance are those of rope_viz.questions.parse_number and
 * NumericQuestion.accepts, written again here; the browser tests compare the two.
 */
(function () {
  "use strict";

  var BLANKS = "[ \\t\\n\\r\\u00a0\\u2009\\u202f]";
  var TRIM = new RegExp("^" + BLANKS + "+|" + BLANKS + "+$", "g");
  var PLAIN = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
  var GROUPED =
    /^[+-]?[0-9]{1,3}([, \u00a0\u2009\u202f])[0-9]{3}(?:\1[0-9]{3})*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?$/;

  /* The number in `text`, or NaN: a sign (+, - or U+2212), digits in groups of three separated by one kind
   * of separator (comma, space, no-break space, thin space) or not at all, a decimal point, an exponent. */
  function parseNumber(text) {
    var cleaned = String(text).replace(TRIM, "").replace(/\u2212/g, "-");
    var grouped = GROUPED.exec(cleaned);
    if (grouped) {
      cleaned = cleaned.split(grouped[1]).join("");
    } else if (!PLAIN.test(cleaned)) {
      return NaN;
    }
    var value = Number(cleaned);
    return isFinite(value) ? value : NaN;
  }

  /* |x - answer| <= max(absolute tolerance, relative tolerance * |answer|), as NumericQuestion.accepts. */
  function accepts(form, value) {
    var answer = Number(form.dataset.answer);
    var allowed = Math.max(
      Number(form.dataset.absoluteTolerance),
      Number(form.dataset.relativeTolerance) * Math.abs(answer)
    );
    return Math.abs(value - answer) <= allowed;
  }

  function verdict(form) {
    if (form.dataset.ropeVizQuestion === "numeric") {
      var input = form.querySelector("input[name=answer]");
      var value = parseNumber(input.value);
      var state = isNaN(value) ? "invalid" : accepts(form, value) ? "correct" : "incorrect";
      input.setAttribute("aria-invalid", state === "invalid" ? "true" : "false");
      return state;
    }
    var chosen = form.querySelector("input[type=radio]:checked");
    if (!chosen) return "invalid";
    return chosen.value === form.dataset.correct ? "correct" : "incorrect";
  }

  var FEEDBACK = { correct: "feedbackCorrect", incorrect: "feedbackIncorrect", invalid: "feedbackInvalid" };

  function check(form) {
    var state = verdict(form);
    var feedback = form.querySelector("[data-rope-viz-feedback]");
    var solution = form.querySelector("[data-rope-viz-solution]");
    feedback.dataset.state = state;
    feedback.textContent = form.dataset[FEEDBACK[state]];
    if (state !== "invalid" && solution) solution.hidden = false;
    return state;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest && event.target.closest("[data-rope-viz-question]");
    if (!form) return;
    event.preventDefault();
    check(form);
  });

  /* A changed answer is a new attempt: the old verdict would now describe something else. */
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-rope-viz-question]");
    if (!form) return;
    var feedback = form.querySelector("[data-rope-viz-feedback]");
    if (feedback && feedback.dataset.state) {
      delete feedback.dataset.state;
      feedback.textContent = "";
    }
  });

  window.RopeVizQuestions = { parseNumber: parseNumber, check: check };
})();
