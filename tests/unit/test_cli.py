import json
from pathlib import Path

from harp_ir.cli import harp, harp_opt

ROOT = Path(__file__).resolve().parents[2]
TRAIN = str(ROOT / "examples" / "torch_train.py")


def test_analyze_exit_status_and_text(capsys):
    assert harp.main(["analyze", TRAIN]) == 1
    out = capsys.readouterr().out
    assert "torch_train.py:25:27: HARP201 host-sync-in-loop:" in out


def test_analyze_json(capsys):
    assert harp.main(["analyze", "--format", "json", TRAIN]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["version"] == 1 and data["errors"] == []
    assert {"id", "name", "span", "message", "assumptions", "fix", "doc"} <= set(
        data["hints"][0])


def test_analyze_clean_file_exits_zero(tmp_path, capsys):
    clean = tmp_path / "clean.py"
    clean.write_text("import torch\nx = torch.ones(3)\nprint(x.sum().item())\n")
    assert harp.main(["analyze", str(clean)]) == 0
    assert capsys.readouterr().out == ""


def test_syntax_error_reported_and_other_files_analysed(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    assert harp.main(["analyze", str(bad), TRAIN]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:1:" in captured.err and "Traceback" not in captured.err
    assert "HARP201" in captured.out


def test_import_writes_output_file(tmp_path):
    out = tmp_path / "m.mlir"
    assert harp.main(["import", TRAIN, "-o", str(out)]) == 0
    text = out.read_text()
    assert '"host.module"' in text and "torch_train.py" in text


def test_harp_opt_split_input_file_keeps_chunks(tmp_path, capsys):
    src = tmp_path / "two.mlir"
    src.write_text('%0 = "host.load"() {name = "a"} : () -> !host.obj\n// -----\n'
                   '%0 = "host.load"() {name = "b"} : () -> !host.obj\n')
    assert harp_opt.main([str(src), "--split-input-file"]) == 0
    out = capsys.readouterr().out
    assert out.count("// -----") == 1 and '"a"' in out and '"b"' in out


def test_harp_opt_pass_flags_keep_command_line_order():
    elements, rest = harp_opt.split_passes(
        ["in.mlir", "--cse", "--harp-host-sync-in-loop", "-o", "x", "--canonicalize"])
    assert elements == ["cse", "harp-host-sync-in-loop", "canonicalize"]
    assert rest == ["in.mlir", "-o", "x"]


def test_harp_opt_missing_input(capsys):
    assert harp_opt.main(["/no/such/file.mlir"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_harp_opt_reads_only_regular_files_and_stdin(tmp_path, capsys, monkeypatch):
    """A FIFO would block and a device never ends: each is one error line, exit 1; an input
    beyond the size guard is refused before it is read whole."""
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        assert harp_opt.main([path]) == 1
        assert capsys.readouterr().err == (f"harp-opt: error: cannot read '{path}': "
                                           f"not a regular file\n")
    big = tmp_path / "big.mlir"
    big.write_text("module {}\n" * 20)
    monkeypatch.setattr(harp_opt, "MAX_INPUT_BYTES", 100)
    assert harp_opt.main([str(big)]) == 1
    assert "larger than 100 bytes" in capsys.readouterr().err
    monkeypatch.setattr(harp_opt, "MAX_INPUT_BYTES", 1000)
    assert harp_opt.main([str(big)]) == 0
