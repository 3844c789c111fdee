"""The ``attest`` command tree as a user reads it (issue 15, item 1): every command, option and
argument has help text without reStructuredText markup; the exit codes are one table, shown by
``attest --help`` and copied into the README; progress is drawn on stderr, so ``--json`` stdout
parses while a progress bar runs in a terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from ingest.errors import EXIT_CODES
from service.cli import main
from service.cli.app import app
from service.cli.exit_codes import EXIT_CODE_TABLE
from service.sweeps import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def walk(command, path: tuple[str, ...] = ("attest",)) -> Iterator[tuple[tuple[str, ...], object]]:
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from walk(sub, (*path, name))


TREE = list(walk(typer.main.get_command(app)))
LEAVES = [" ".join(path[1:]) for path, command in TREE if not getattr(command, "commands", None)]


def test_the_tree_has_every_command() -> None:
    assert sorted(LEAVES) == [
        "ask", "audit revalidate", "audit verify", "delete", "entities", "es init", "es migrate",
        "es optimize", "es status", "ingest", "mcp", "search", "serve", "status", "sweep run",
        "table", "worker",
    ]


@pytest.mark.parametrize("path, command", TREE, ids=[" ".join(p) for p, _ in TREE])
def test_every_command_option_and_argument_has_plain_help(path, command) -> None:
    texts = {"help": command.help, "epilog": command.epilog}
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text"
    for param in command.params:
        if param.name == "help":
            continue
        assert (param.help or "").strip(), f"{' '.join(path)}: {param.opts} has no help text"
        texts[str(param.opts)] = param.help
    for where, text in texts.items():
        assert "``" not in (text or ""), f"{' '.join(path)} {where}: reStructuredText markup"
        assert ":func:" not in (text or "") and ":class:" not in (text or ""), f"{' '.join(path)} {where}"


@pytest.mark.parametrize("path", [p for p, _ in TREE], ids=[" ".join(p) for p, _ in TREE])
def test_every_help_page_renders_every_option(path, capsys) -> None:
    assert main([*path[1:], "--help"]) == 0
    out = capsys.readouterr().out
    assert "``" not in out
    command = dict(TREE)[path]
    for param in command.params:
        for opt in param.opts:
            if opt.startswith("--"):
                assert opt in out, f"{' '.join(path)} --help does not show {opt}"


def test_top_level_help_shows_the_exit_codes_and_no_markup(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "``" not in out
    flat = " ".join(out.replace("│", " ").split())
    assert "Exit codes:" in flat
    for code, meaning in EXIT_CODE_TABLE:
        assert f"{code} {meaning}" in flat


def test_readme_exit_codes_are_the_table() -> None:
    section = README.split("### Exit codes", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", section, flags=re.M)
    assert [(int(code), meaning) for code, meaning in rows] == list(EXIT_CODE_TABLE)


def test_the_table_covers_every_error_family_and_the_sweep_codes() -> None:
    codes = [code for code, _ in EXIT_CODE_TABLE]
    assert codes == sorted(set(codes))
    assert set(EXIT_CODES.values()) | {0} == set(codes)
    meaning = dict(EXIT_CODE_TABLE)
    assert EXIT_CLEAN == 0 and "sweep" in meaning[EXIT_ERROR] and "sweep run: findings" in meaning[EXIT_FINDINGS]


def test_readme_lists_every_command_and_option() -> None:
    commands = README.split("## Commands", 1)[1].split("\n### ", 1)[0]
    for path, command in TREE:
        leaf = " ".join(path[1:])
        if leaf not in LEAVES:
            continue
        assert f"`attest {leaf}" in commands, f"README does not list attest {leaf}"
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in commands, f"README does not mention attest {leaf} {opt}"


def test_usage_errors_exit_2_with_one_error_line(capsys) -> None:
    assert main(["ingest"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == "Error: Missing argument 'PATH'."
    assert main(["table", "--attribute", "governing_law", "--format", "xml"]) == 2
    assert "'xml' is not one of 'csv', 'json'" in capsys.readouterr().err
    assert main(["no-such-command"]) == 2


def test_progress_labels_are_text_not_markup(monkeypatch) -> None:
    """A file named like rich markup ('[/]' alone is a markup error) is drawn as it is."""
    import io

    from rich.console import Console

    from service.cli import progress

    screen = io.StringIO()
    monkeypatch.setattr(progress, "stderr_console", lambda: Console(file=screen, force_terminal=True, width=100))
    with progress.progress_on_stderr("ingesting", total=1) as tracker:
        tracker.step(0, 1, "ingesting [/] [bold]lease.txt")
        tracker.progress.refresh()
        tracker.step(1, 1)
    assert "ingesting [/] [bold]lease.txt" in screen.getvalue()


def test_log_lines_during_progress_go_above_the_bar(monkeypatch) -> None:
    """A warning logged while the bar is live is written through the display, whole, on its own
    line, instead of into the middle of the bar."""
    import io

    import structlog
    from rich.console import Console

    from service.cli import progress
    from service.logs import configure_logging

    screen = io.StringIO()
    monkeypatch.setattr(progress, "stderr_console", lambda: Console(file=screen, force_terminal=True, width=100))
    configure_logging("INFO", sys.stderr)
    with progress.progress_on_stderr("ingesting", total=2) as tracker:
        tracker.step(1, 2, "ingesting lease.txt")
        tracker.progress.refresh()
        structlog.get_logger().warning("ingest_document_failed", doc_id="lease", reason="empty text")
        tracker.step(2, 2)
    lines = [line for line in screen.getvalue().splitlines() if "ingest_document_failed" in line]
    assert len(lines) == 1
    event = json.loads(lines[0][lines[0].index("{"):])
    assert (event["event"], event["doc_id"], event["reason"]) == ("ingest_document_failed", "lease", "empty text")


def _attest_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({"ATTEST_DATA_DIR": str(data_dir), "PYTHONPATH": str(REPO), "TERM": "xterm-256color",
                "COLUMNS": "120"})
    return env


def on_terminal(data_dir: Path, *args: str) -> tuple[int, str, str]:
    """Run attest with stderr on a real terminal (a pty) and stdout on a pipe; return the exit
    code, stdout, and everything the terminal received."""
    master, slave = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: every writer closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", *args], stdout=subprocess.PIPE,
                            stderr=slave, cwd=REPO, env=_attest_env(data_dir))
    os.close(slave)
    out, _ = proc.communicate(timeout=600)
    reader.join(timeout=30)
    os.close(master)
    return proc.returncode, out.decode("utf-8"), b"".join(chunks).decode("utf-8", "replace")


SPONSORSHIP = "EcoScienceSolutionsInc_20180406_8-K_EX-10.1_11135398_EX-10.1_Sponsorship Agreement"


@pytest.fixture(scope="module")
def terminal_ingest(tmp_path_factory) -> tuple[Path, Path, tuple[int, str, str]]:
    root = tmp_path_factory.mktemp("terminal")
    docs = root / "docs"
    docs.mkdir()
    shutil.copy(REPO / "samples" / "cuad" / f"{SPONSORSHIP}.txt", docs / "sponsorship.txt")
    (docs / "notes.xyz").write_text("scratch", encoding="utf-8")
    data = root / "data"
    return data, docs, on_terminal(data, "ingest", str(docs), "--acl", "*", "--json")


def test_ingest_json_stays_clean_while_progress_draws_on_a_terminal(terminal_ingest) -> None:
    """The bar and the summary go to the terminal; stdout is exactly one JSON document."""
    _, docs, (code, out, terminal) = terminal_ingest
    assert code == 0, terminal[-2000:]
    report = json.loads(out)  # nothing but the JSON document on stdout
    assert [(d["doc_id"], d["status"]) for d in report["documents"]] == [("sponsorship", "indexed")]
    assert report["skipped"] == [{"path": str(docs / "notes.xyz"), "reason": "unsupported suffix .xyz"}]
    assert "ingesting sponsorship.txt" in terminal  # the bar was drawn on the terminal
    assert "1 indexed, 0 unchanged, 0 failed, 1 skipped" in terminal


def test_table_csv_stays_clean_while_progress_draws_on_a_terminal(terminal_ingest) -> None:
    data, _, _ = terminal_ingest
    code, out, terminal = on_terminal(data, "table", "--attribute", "governing_law")
    assert code == 0, terminal[-2000:]
    assert out.splitlines() == [
        "subject_id,name,doc_id,title,governing_law,governing_law_sufficient,governing_law_citation",
        out.splitlines()[1],
    ]
    row = out.splitlines()[1]
    assert row.startswith("agreement:sponsorship agreement@sponsorship,SPONSORSHIP AGREEMENT,sponsorship,")
    assert ",florida,true,sponsorship@" in row.lower()
    assert "table rows" in terminal and "1 row(s) on this page, 1 in the class" in terminal


def test_sweep_json_stays_clean_while_progress_draws_on_a_terminal(terminal_ingest, tmp_path) -> None:
    data, _, _ = terminal_ingest
    definition = tmp_path / "sweep.yaml"
    definition.write_text(
        "version: 1\nname: terminal\nprincipal: {name: sweeper}\nfreshness: 365d\nqueries:\n"
        "  - id: law\n    question: What law governs the SPONSORSHIP AGREEMENT between Fruit of Life"
        " Productions LLC and Eco Science Solutions, Inc.?\n"
        "  - id: missing\n    question: What law governs the LEASE between Nobody LLC and Nothing Inc.?\n",
        encoding="utf-8",
    )
    code, out, terminal = on_terminal(data, "sweep", "run", str(definition), "--json")
    assert code == EXIT_CLEAN, terminal[-2000:]
    report = json.loads(out)
    assert [q["query_id"] for q in report["queries"]] == ["law", "missing"]
    assert "sweep terminal" in terminal and "2 queries, 0 findings" in terminal


def test_without_a_terminal_stderr_gets_only_the_summary(tmp_path) -> None:
    (tmp_path / "memo.txt").write_text("The CEO resigned on 3 March 2024.", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "ingest", str(tmp_path / "memo.txt"), "--acl", "legal"],
        capture_output=True, text=True, cwd=REPO, env=_attest_env(tmp_path / "data"), timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "memo: indexed\n"
    assert done.stderr == "1 indexed, 0 unchanged, 0 failed, 0 skipped\n"


def test_ask_and_search_share_one_definition_of_their_filters(capsys) -> None:
    import typing

    from service.cli.ask import ask
    from service.cli.options import CollectionFilter, DocIdFilter
    from service.cli.search import search_command

    for command in (ask, search_command):
        hints = typing.get_type_hints(command, include_extras=True)
        assert (hints["doc_id"], hints["collection"]) == (DocIdFilter, CollectionFilter)
    for name in ("ask", "search"):  # as a user reads them: the same flags and help
        assert main([name, "--help"]) == 0
        page = re.sub(r"\s+", " ", capsys.readouterr().out)
        assert "--doc-id <list[str]> Restrict to this document (repeatable)." in page
        assert "--collection <list[str]> Restrict to this collection (repeatable)." in page
