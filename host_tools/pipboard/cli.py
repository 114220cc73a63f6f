"""The ``pipboard`` command: one entry point, one sub-command per tool."""

import argparse
import sys

from pipboard import __version__


def _cmd_rules(args):
    from pipboard.rules_cli import run

    return run(sys.stdin, sys.stdout)


# the cube and match options of RULES.md 0.4 that ``pipboard sim`` takes: (argument, option name, value when given)
_SIM_FLAGS = (("no_cube", "cubeEnabled", False), ("arithmetic_cube", "cubeProgression", "arithmetic"),
              ("beavers", "beavers", True), ("raccoons", "raccoons", True), ("jacoby", "jacoby", True),
              ("no_gammons_with_cube", "noGammonsWithCube", True), ("no_crawford", "crawford", False),
              ("opening_reroll", "openingReroll", True))


def _sim_options(args):
    """The match options ``pipboard sim`` starts with (the clock, the match length, the cube options)."""
    from pipcore.options import ConfigError, make_options

    opts = {}
    if args.clock != "off":
        opts.update(clock=args.clock, clockMinutes=args.clock_minutes, clockDelay=args.clock_delay)
    if args.match:
        opts["matchLength"] = args.match
    for attr, name, value in _SIM_FLAGS:
        if getattr(args, attr, False):
            opts[name] = value
    if getattr(args, "cube_cap", 0):
        opts["cubeCap"] = args.cube_cap
    if getattr(args, "auto_doubles", 0):
        opts["autoDoubles"] = args.auto_doubles
    try:
        make_options(opts)
    except ConfigError as exc:
        raise SystemExit("pipboard sim: %s" % exc)
    return opts or None


def _cmd_sim(args):
    options = _sim_options(args)
    if not args.text:
        if args.save:
            sys.stderr.write("pipboard sim: --save is for the text mode (--text); the simulated board's match is "
                             "exported with pipboard export --sim -o FILE.mat\n")
            return 2
        from pipboard.hostcli import run_sim

        return run_sim(args, options)
    if args.save:
        import os

        folder = os.path.dirname(os.path.abspath(args.save))
        if not os.path.isdir(folder):
            sys.stderr.write("pipboard sim: --save %s: there is no folder %s\n" % (args.save, folder))
            return 2
    from pipboard.textgame import play

    return play(sys.stdin, sys.stdout, seed=args.seed, options=options, save=args.save)


def _auto_doubles(text):
    """``--auto-doubles``: 0 (off), a limit, or ``unlimited``."""
    if text.lower() in ("unlimited", "-1"):
        return -1
    try:
        value = int(text)
    except ValueError:
        value = -2
    if value < 0:
        raise argparse.ArgumentTypeError("automatic doubles are 0 (off), a limit (1, 2, ...) or 'unlimited', not %r"
                                         % text)
    return value


def _cmd_backalley(args):
    from pipboard.batext import run

    return run(args)


def _cmd_hwdocs(args):
    from pipboard.hwdocs import run

    return run(args.out, check=args.check)


def _cmd_import(args):
    from pipboard.matfile import run_import

    return run_import(args)


def _cmd_coach(args):
    from pipboard.coach import run
    from pipboard.hostcli import target_of

    return run(target_of(args), plies=args.plies, errors_only=args.errors_only, summary=not args.no_summary)


def _cmd_verify(args):
    from pipboard.verify import run

    return run(args)


def _plies(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value not in (0, 1, 2):
        raise argparse.ArgumentTypeError("the coach's strength is 0, 1 or 2 plies, not %r" % text)
    return value


def build_parser():
    parser = argparse.ArgumentParser(prog="pipboard", description="Pipboard electronic backgammon board: host tools")
    parser.add_argument("--version", action="version", version="pipboard " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("rules", help="answer legal-play questions as JSON lines on stdin/stdout")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("sim", help="play on the simulated board")
    p.add_argument("--seed", type=int, default=None, help="seed the dice (repeatable games)")
    p.add_argument("--text", action="store_true", help="text mode: the board drawn in the terminal, moves typed")
    p.add_argument("--clock", choices=("off", "simple", "bronstein"), default="off",
                   help="the tournament clock (docs/controller.md): simple delay or Bronstein (default off)")
    p.add_argument("--clock-minutes", type=int, default=2, metavar="M",
                   help="reserve: minutes per point of match length, per game in money play (default 2)")
    p.add_argument("--clock-delay", type=int, default=12, metavar="S", help="delay per turn, seconds (default 12)")
    p.add_argument("--match", type=int, default=0, metavar="N",
                   help="a match to N points (default money play)")
    p.add_argument("--save", metavar="FILE.mat", default=None,
                   help="text mode: write the match as a GNU Backgammon .mat file on leaving")
    cube = p.add_argument_group("the cube (RULES.md 0.4; every option not given keeps the board's default)")
    cube.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    cube.add_argument("--cube-cap", type=int, default=0, metavar="N",
                      help="the cube goes no higher than N (a power of two; default no cap)")
    cube.add_argument("--arithmetic-cube", action="store_true", help="each double adds one stake (money play)")
    cube.add_argument("--auto-doubles", type=_auto_doubles, default=0, metavar="N",
                      help="opening ties double the cube, at most N times, or 'unlimited' (money play)")
    cube.add_argument("--beavers", action="store_true", help="a double may be beavered (money play)")
    cube.add_argument("--raccoons", action="store_true", help="a beaver may be raccooned (needs --beavers)")
    cube.add_argument("--jacoby", action="store_true", help="gammons count only once the cube was turned "
                      "(money play)")
    cube.add_argument("--no-gammons-with-cube", action="store_true", help="gammons count as singles")
    cube.add_argument("--no-crawford", action="store_true", help="a match without the Crawford rule")
    cube.add_argument("--opening-reroll", action="store_true",
                      help="the winner of the opening roll rolls two fresh dice")
    p.set_defaults(func=_cmd_sim)
    p = sub.add_parser("backalley", help="play Back Alley in the terminal: you and three bots, or four bots "
                       "(docs/backalley.md)")
    from pipboard.batext import add_arguments as add_backalley_arguments

    add_backalley_arguments(p)
    p.set_defaults(func=_cmd_backalley)

    p = sub.add_parser("hwdocs", help="generate hardware/ drawings and tables from the board geometry")
    p.add_argument("--out", default=None, help="output folder (default: the repository's hardware/)")
    p.add_argument("--check", action="store_true", help="only check that the committed files are up to date")
    p.set_defaults(func=_cmd_hwdocs)

    p = sub.add_parser("import", help="read a .mat file (gnubg, Jellyfish) into a game record, checking every move")
    from pipboard.matfile import add_import_arguments

    add_import_arguments(p)
    p.set_defaults(func=_cmd_import)

    p = sub.add_parser("verify", help="check every roll of a provably fair match against its commitment")
    from pipboard.verify import add_arguments as add_verify_arguments

    add_verify_arguments(p)
    p.set_defaults(func=_cmd_verify)

    from pipboard.hostcli import _target_args, add_commands

    add_commands(sub)

    p = sub.add_parser("coach", help="gnubg judges every play and cube decision on the board (docs/coach.md)")
    _target_args(p)
    p.add_argument("--plies", type=_plies, default=0, metavar="N",
                   help="gnubg's strength: 0, 1 or 2 plies (default 0: instant; 2 is gnubg's analysis default)")
    p.add_argument("--errors-only", action="store_true",
                   help="speak only after an error (doubtful, bad, very bad); default: after every play")
    p.add_argument("--no-summary", action="store_true", help="no gnubg statistics at the end of a match")
    p.set_defaults(func=_cmd_coach)
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
