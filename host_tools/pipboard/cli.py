"""The ``pipboard`` command: one entry point, one sub-command per tool."""

import argparse
import sys

from pipboard import __version__


def _cmd_rules(args):
    from pipboard.rules_cli import run

    return run(sys.stdin, sys.stdout)


def _cmd_sim(args):
    if not args.text:
        from pipboard.hostcli import run_sim

        return run_sim(args)
    from pipboard.textgame import play

    return play(sys.stdin, sys.stdout, seed=args.seed)


def _cmd_hwdocs(args):
    from pipboard.hwdocs import run

    return run(args.out, check=args.check)


def _cmd_import(args):
    from pipboard.matfile import run_import

    return run_import(args)


def build_parser():
    parser = argparse.ArgumentParser(prog="pipboard", description="Pipboard electronic backgammon board: host tools")
    parser.add_argument("--version", action="version", version="pipboard " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("rules", help="answer legal-play questions as JSON lines on stdin/stdout")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("sim", help="play on the simulated board")
    p.add_argument("--seed", type=int, default=None, help="seed the dice (repeatable games)")
    p.add_argument("--text", action="store_true", help="text mode: the board drawn in the terminal, moves typed")
    p.set_defaults(func=_cmd_sim)
    p = sub.add_parser("hwdocs", help="generate hardware/ drawings and tables from the board geometry")
    p.add_argument("--out", default=None, help="output folder (default: the repository's hardware/)")
    p.add_argument("--check", action="store_true", help="only check that the committed files are up to date")
    p.set_defaults(func=_cmd_hwdocs)

    p = sub.add_parser("import", help="read a .mat file (gnubg, Jellyfish) into a game record, checking every move")
    from pipboard.matfile import add_import_arguments

    add_import_arguments(p)
    p.set_defaults(func=_cmd_import)

    from pipboard.hostcli import add_commands

    add_commands(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
