#!/usr/bin/python3
"""Runs the example commands of the READMEs and of the workflows' INI comments.

Usage: doc_commands.py list FILE...
       doc_commands.py run --root ROOT --bin BIN [--gpu] FILE...

The commands are the lines of the ```sh blocks of a README (a line ending in
a backslash continues on the next) and, in an INI file, the comment lines
that start with `run.sh ` (`#   run.sh --only gravity -- --station-step 1`),
which run the INI's workflow. `list` prints them; `run` runs them in order,
each in bash in a scratch folder (removed unless a command fails):

- `workflows/NAME/run.sh ...` as ROOT/workflows/NAME/run.sh --coarse --out
  SCRATCH/NAME ...: the workflow's quick, coarse run (run.sh --help), with
  its results out of the source tree;
- `build/bin/geobem-...` from BIN;
- commands with `--device cuda` only with --gpu (the gpu-labelled test, on a
  machine with a GPU); without a GPU that test exits 77 (skipped);
- commands that build, install or run the test suite itself (SKIPPED below)
  never: CI runs them as its own steps.

Every command must exit 0 without a Python traceback on stderr; the first
that does not ends the run with its output and status 1.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Commands that cannot run inside the test suite, and why.
SKIPPED = {
    "scripts/run-default.sh": "installs, builds and runs every workflow at full size: the coarse runs here cover them",
    "scripts/test.sh": "installs, builds and runs this test suite (CI's own command)",
    "ctest ": "runs this test suite",
}


def readme_commands(path):
    """The commands of the ```sh blocks of a Markdown file, in order."""
    commands, block, pending = [], False, ""
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                block = not block and stripped[3:].strip() in ("sh", "bash", "shell")
                continue
            if not block or not stripped:
                continue
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            commands.append((f"{path}:{number}", pending + stripped))
            pending = ""
    return commands


def ini_commands(path):
    """The `# run.sh ...` comment lines of a workflow's INI file, as commands."""
    workflow = os.path.basename(os.path.dirname(os.path.abspath(path)))
    commands = []
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            match = re.match(r"#\s+run\.sh(\s.*)$", line.rstrip("\n"))
            if match:
                commands.append((f"{path}:{number}", f"workflows/{workflow}/run.sh{match.group(1)}"))
    return commands


def commands_of(path):
    return readme_commands(path) if path.endswith(".md") else ini_commands(path)


def needs_gpu(command):
    return re.search(r"--device[ =]cuda|device=cuda", command) is not None


def rewritten(command, root, bin_dir, scratch):
    """The command as it runs here: workflows with --coarse --out, stages from BIN."""
    def workflow(match):
        name = match.group(2)
        return f"{match.group(1)}{root}/workflows/{name}/run.sh --coarse --out {scratch}/{name}"

    command = re.sub(r"(^|\s)workflows/([\w.-]+)/run\.sh", workflow, command)
    return re.sub(r"(^|\s)build/bin/", lambda m: f"{m.group(1)}{bin_dir}/", command)


def gpu_present():
    """Whether a CUDA device answers (nvidia-smi lists one)."""
    try:
        listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return listing.returncode == 0 and "GPU" in listing.stdout


def run(arguments):
    if arguments.gpu and not gpu_present():
        print("doc_commands: no GPU: the commands with --device cuda are not run")
        return 77
    scratch = tempfile.mkdtemp(prefix="geobem_doc_commands_")
    environment = dict(os.environ, GEOBEM_BIN=arguments.bin)
    ran = skipped = 0
    for path in arguments.files:
        for where, command in commands_of(path):
            reason = next((why for prefix, why in SKIPPED.items() if command.startswith(prefix)), None)
            if reason is None and needs_gpu(command) and not arguments.gpu:
                reason = "needs a GPU (the gpu-labelled doc_commands test runs it)"
            if reason:
                print(f"{where}: skipped, {reason}: {command}")
                skipped += 1
                continue
            line = rewritten(command, arguments.root, arguments.bin, scratch)
            started = time.monotonic()
            result = subprocess.run(["bash", "-euo", "pipefail", "-c", line], cwd=scratch, env=environment,
                                    capture_output=True, text=True)
            seconds = time.monotonic() - started
            print(f"{where}: exit {result.returncode} in {seconds:.1f} s: {command}", flush=True)
            if result.returncode != 0 or "Traceback (most recent call last)" in result.stderr:
                print(f"--- ran: {line}\n--- stdout:\n{result.stdout[-4000:]}\n--- stderr:\n{result.stderr[-8000:]}")
                print(f"doc_commands: scratch folder kept: {scratch}")
                return 1
            ran += 1
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"doc_commands: {ran} commands ran, {skipped} skipped")
    return 0 if ran > 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    listing = sub.add_parser("list")
    listing.add_argument("files", nargs="+")
    running = sub.add_parser("run")
    running.add_argument("--root", required=True)
    running.add_argument("--bin", required=True)
    running.add_argument("--gpu", action="store_true")
    running.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    if arguments.action == "list":
        for path in arguments.files:
            for where, command in commands_of(path):
                print(f"{where}: {command}")
        return 0
    return run(arguments)


if __name__ == "__main__":
    sys.exit(main())
