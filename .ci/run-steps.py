"""Runs GitHub Actions steps on this machine, as the runner would, for .ci/workflows.sh.

    run-steps.py STEPS.yml --workspace DIR --action DIR [--job NAME] [--ref REF]
                 [--run-id N] [--cache DIR] [--replace NAME=COMMAND] [--report FILE]

STEPS.yml is a workflow (its job NAME, default the first) or a bare list of steps (the
README's). Each `run:` step runs with `bash --noprofile --norc -eo pipefail` in the workspace,
with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH and GITHUB_ENV files as the runner gives
them; `${{ … }}` expressions are read from inputs, steps, github, runner, secrets (the
environment's SECRET_NAME) and env. `uses:` steps:

- `*/sitemapgen@REF`: this repository's action.yml (from --action), its composite steps in
  order, with `github.action_ref` = REF;
- `actions/checkout@*`: nothing (the workspace is a clone already);
- `actions/cache@*` and `actions/cache/restore@*`, `actions/cache/save@*`: a folder per key
  under --cache (restore: the exact key, else the newest key starting with a restore key);
  the action's own caches are always a miss, as on a repository's first run.

A step whose name is given to --replace runs COMMAND instead (the deploy). Anything else the
steps use is an error, so a recipe that grows a step this runner cannot play fails the walk.
The report (JSON) holds each step's outputs and conclusion, and the job summary.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def lookup(path, ctx):
    """A context path (`steps.run.outputs.url-count`); empty when absent."""
    value = ctx
    for part in path.split("."):
        if not isinstance(value, dict):
            return ""
        value = value.get(part, "")
    return "" if value is None else str(value)


def term(text, ctx):
    text = text.strip()
    if text in ("always()", "success()"):
        return True
    m = re.fullmatch(r"([\w.\-]+)\s*(==|!=)\s*'([^']*)'", text)
    if m:
        equal = lookup(m.group(1), ctx) == m.group(3)
        return equal if m.group(2) == "==" else not equal
    if re.fullmatch(r"[\w.\-]+", text):
        return lookup(text, ctx) not in ("", "false", "0")
    raise SystemExit(f"run-steps: cannot evaluate `{text}`")


def condition(text, ctx):
    text = str(text).strip()
    m = EXPR.fullmatch(text)
    if m:
        text = m.group(1)
    return all(term(t, ctx) for t in text.split("&&"))


def expand(value, ctx):
    def one(m):
        expr = m.group(1)
        if not re.fullmatch(r"[\w.\-]+", expr):
            raise SystemExit(f"run-steps: cannot evaluate `{expr}`")
        return lookup(expr, ctx)

    return EXPR.sub(one, str(value))


def read_pairs(path):
    """KEY=VALUE lines and KEY<<DELIM blocks, as GITHUB_OUTPUT and GITHUB_ENV hold them."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            body = []
            i += 1
            while i < len(lines) and lines[i] != delim:
                body.append(lines[i])
                i += 1
            out[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        i += 1
    return out


class Runner:
    def __init__(self, args):
        self.args = args
        self.workspace = os.path.abspath(args.workspace)
        self.temp = tempfile.mkdtemp(prefix="runner-temp-")
        self.summary = ""
        self.path_added = []
        self.env_added = {}
        self.replace = dict(r.split("=", 1) for r in args.replace)
        self.github = {
            "ref": args.ref,
            "run_id": args.run_id,
            "workspace": self.workspace,
            "event_name": "push",
        }
        self.runner = {"os": "Linux", "arch": os.environ.get("RUNNER_ARCH", "X64"),
                       "temp": self.temp}
        self.secrets = {k[len("SECRET_"):]: v for k, v in os.environ.items()
                        if k.startswith("SECRET_")}

    def base_env(self):
        env = dict(os.environ)
        for k in list(env):
            if k.startswith("SECRET_"):
                del env[k]
        env.update(self.env_added)
        env.update({
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": self.workspace,
            "GITHUB_REF": self.args.ref,
            "GITHUB_RUN_ID": self.args.run_id,
            "RUNNER_OS": "Linux",
            "RUNNER_ARCH": self.runner["arch"],
            "RUNNER_TEMP": self.temp,
        })
        env["PATH"] = os.pathsep.join(list(reversed(self.path_added)) + [env["PATH"]])
        return env

    def shell(self, script, step_env, name, extra=None):
        files = tempfile.mkdtemp(dir=self.temp)
        paths = {k: os.path.join(files, k) for k in ("out", "summary", "path", "env")}
        for p in paths.values():
            open(p, "w").close()
        with open(os.path.join(files, "step.sh"), "w") as f:
            f.write(script)
        env = self.base_env()
        env.update(extra or {})
        env.update(step_env)
        env.update({
            "GITHUB_OUTPUT": paths["out"],
            "GITHUB_STEP_SUMMARY": paths["summary"],
            "GITHUB_PATH": paths["path"],
            "GITHUB_ENV": paths["env"],
        })
        print(f"::group::{name}", flush=True)
        code = subprocess.call(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", os.path.join(files, "step.sh")],
            cwd=self.workspace, env=env)
        print(f"::endgroup:: {name}: exit {code}", flush=True)
        self.summary += open(paths["summary"], encoding="utf-8").read()
        self.path_added += [l for l in open(paths["path"]).read().splitlines() if l]
        self.env_added.update(read_pairs(paths["env"]))
        return code, read_pairs(paths["out"])

    def cache(self, uses, with_, exact_only_miss):
        """actions/cache: restore from --cache; the action's own caches always miss."""
        kind = uses.split("@")[0]
        if exact_only_miss or not self.args.cache:
            return {"cache-hit": "false"}
        root = self.args.cache
        os.makedirs(root, exist_ok=True)
        path = os.path.join(self.workspace, with_["path"])
        key = with_["key"]
        if kind == "actions/cache/save":
            dest = os.path.join(root, key)
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            if os.path.exists(path):
                shutil.copy2(path, os.path.join(dest, "item"))
            print(f"cache: saved {with_['path']} as {key}")
            return {}
        found = key if os.path.isdir(os.path.join(root, key)) else None
        if not found:
            prefixes = [p for p in str(with_.get("restore-keys", "")).splitlines() if p]
            keys = sorted((k for k in os.listdir(root) if any(k.startswith(p) for p in prefixes)),
                          key=lambda k: os.path.getmtime(os.path.join(root, k)))
            found = keys[-1] if keys else None
        if found and os.path.exists(os.path.join(root, found, "item")):
            shutil.copy2(os.path.join(root, found, "item"), path)
            print(f"cache: restored {with_['path']} from {found}")
        else:
            print(f"cache: nothing for {key}")
        return {"cache-hit": "true" if found == key else "false"}

    def action(self, ref, with_, outer):
        """This repository's composite action, its steps in order."""
        action_dir = os.path.abspath(self.args.action)
        action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
        inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
        for k, v in with_.items():
            if k not in inputs:
                raise SystemExit(f"run-steps: the action has no input `{k}`")
            inputs[k] = expand(v, outer)
        ctx = {"inputs": inputs, "steps": {}, "github": dict(self.github, action_ref=ref),
               "runner": self.runner, "env": {}}
        extra = {"GITHUB_ACTION_PATH": action_dir}
        for i, step in enumerate(action["runs"]["steps"]):
            name = "  " + step.get("name", step.get("id", f"step {i}"))
            if "if" in step and not condition(step["if"], ctx):
                print(f"{name}: skipped ({step['if']})")
                continue
            if "uses" in step:
                if not step["uses"].startswith("actions/cache@"):
                    raise SystemExit(f"run-steps: the action uses {step['uses']}")
                outputs = self.cache(step["uses"], step.get("with", {}), True)
                code = 0
            else:
                env = {k: expand(v, ctx) for k, v in step.get("env", {}).items()}
                code, outputs = self.shell(step["run"], env, name, extra)
            if "id" in step:
                ctx["steps"][step["id"]] = {"outputs": outputs}
            if code != 0:
                return code, {}
        return 0, {k: expand(v["value"], ctx) for k, v in action.get("outputs", {}).items()}

    def run(self, steps):
        ctx = {"steps": {}, "github": self.github, "runner": self.runner,
               "secrets": self.secrets, "env": {}}
        report = {"steps": [], "summary": ""}
        failed = False
        for i, step in enumerate(steps):
            name = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
            cond = step.get("if", "success()")
            if ("always()" not in str(cond) and failed) or not condition(cond, ctx):
                print(f"{name}: skipped")
                report["steps"].append({"name": name, "conclusion": "skipped"})
                continue
            env = {k: expand(v, ctx) for k, v in step.get("env", {}).items()}
            uses = step.get("uses", "")
            code, outputs = 0, {}
            if name in self.replace:
                print(f"{name}: replaced by: {self.replace[name]}")
                code, outputs = self.shell(self.replace[name], env, name)
            elif "run" in step:
                code, outputs = self.shell(expand(step["run"], ctx), env, name)
            elif uses.startswith("actions/checkout@"):
                print(f"{name}: the workspace is a clone already")
            elif uses.split("@")[0] in ("actions/cache", "actions/cache/restore",
                                        "actions/cache/save"):
                outputs = self.cache(uses, {k: expand(v, ctx) for k, v in
                                            step.get("with", {}).items()}, False)
            elif uses.split("@")[0].endswith("/sitemapgen"):
                print(f"== {name}", flush=True)
                code, outputs = self.action(uses.split("@", 1)[1], step.get("with", {}), ctx)
            else:
                raise SystemExit(f"run-steps: no stand-in for `{uses}`")
            if "id" in step:
                ctx["steps"][step["id"]] = {"outputs": outputs}
            report["steps"].append({"name": name, "id": step.get("id"), "uses": uses,
                                    "conclusion": "failure" if code else "success",
                                    "exit": code, "outputs": outputs})
            failed = failed or code != 0
        report["summary"] = self.summary
        return failed, report


def main():
    p = argparse.ArgumentParser()
    p.add_argument("steps")
    p.add_argument("--workspace", required=True)
    p.add_argument("--action", required=True)
    p.add_argument("--job")
    p.add_argument("--ref", default="refs/heads/main")
    p.add_argument("--run-id", default="1")
    p.add_argument("--cache")
    p.add_argument("--replace", action="append", default=[])
    p.add_argument("--report")
    args = p.parse_args()
    doc = yaml.safe_load(open(args.steps))
    if isinstance(doc, dict):
        jobs = doc["jobs"]
        steps = jobs[args.job or next(iter(jobs))]["steps"]
    else:
        steps = doc
    failed, report = Runner(args).run(steps)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
