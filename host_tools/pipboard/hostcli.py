"""Sub-commands that talk to a board or the simulator: deploy, monitor, selftest, export, play, room, remote, sim."""

import sys


def _target_args(p):
    g = p.add_mutually_exclusive_group()
    g.add_argument("--port", help="serial port of the board (default: find the Pico by USB ID)")
    g.add_argument("--sim", nargs="?", const="sim", metavar="HOST:PORT",
                   help="attach to the simulator (default 127.0.0.1:8766)")


def target_of(args):
    """The link target chosen by --port / --sim (None: find the Pico)."""
    if getattr(args, "sim", None):
        return args.sim if args.sim == "sim" or args.sim.startswith("sim:") else "sim:" + args.sim
    return getattr(args, "port", None)


def add_commands(sub):
    sim = sub.choices.get("sim")
    if sim is not None:
        sim.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
        sim.add_argument("--http-port", type=int, default=8765, help="web page port (default 8765)")
        sim.add_argument("--protocol-port", type=int, default=8766, help="protocol TCP port (default 8766)")
        sim.add_argument("--test", action="store_true", help="start the simulated board in test mode")
        sim.add_argument("--open", action="store_true", help="open the page in a web browser")
        sim.add_argument("--flash", metavar="DIR", default=None,
                         help="keep the simulated board's flash in this folder: the game and its match records "
                         "survive a restart of the simulator (default: in memory)")

    p = sub.add_parser("deploy", help="compile firmware/ and copy what changed to the Pico (mpremote), "
                       "or onto a CircuitPython board's CIRCUITPY drive (--circuitpython)")
    p.add_argument("--port", help="serial port (default: find the Pico by USB ID 2E8A:0005)")
    p.add_argument("--test", action="store_true", help="start the board in test mode (host may set dice, sensors)")
    p.add_argument("--force", action="store_true", help="copy every file, not only the changed ones")
    p.add_argument("--lines", action="store_true", help="keep line numbers in the board's tracebacks (for "
                   "debugging: about 4 %% more of the heap for the code)")
    p.add_argument("--dry-run", action="store_true", help="compile the firmware and list what would be copied; "
                   "no board needed")
    cp = p.add_argument_group("CircuitPython 9/10 (README: 'CircuitPython')")
    cp.add_argument("--circuitpython", action="store_true",
                    help="copy the CircuitPython build onto the CIRCUITPY drive and install its libraries with circup")
    cp.add_argument("--drive", metavar="PATH", help="the CIRCUITPY drive (default: the mounted volume named CIRCUITPY)")
    cp.add_argument("--mpy-cross", metavar="PATH",
                    help="Adafruit's mpy-cross for the board's CircuitPython version: modules go as .mpy "
                         "(default: .py sources)")
    cp.add_argument("--no-libs", action="store_true", help="do not run circup (the libraries are copied by hand)")
    p.set_defaults(func=_cmd_deploy)

    p = sub.add_parser("repl", help="stop the game on the Pico so that mpremote can use the REPL")
    p.add_argument("--port", help="serial port (default: find the Pico by USB ID 2E8A:0005)")
    p.set_defaults(func=_cmd_repl)

    p = sub.add_parser("check", help="measure the firmware on a Pico (on USB, or the emulated one): deploy in test "
                       "mode, run every tests/pico script, play whole games, print one table (tests/README.md)")
    from pipboard.check import add_arguments as add_check_arguments

    add_check_arguments(p)
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("monitor", help="mirror the game on a board or the simulator, live")
    _target_args(p)
    p.add_argument("--once", action="store_true", help="print the current state and exit")
    p.set_defaults(func=_cmd_monitor)

    p = sub.add_parser("selftest", help="the board's guided switch test: say what to do, then name every faulty "
                       "switch (docs/board-menu.md)")
    _target_args(p)
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="stop the test after S seconds and report what it found so far")
    p.set_defaults(func=_cmd_selftest)

    p = sub.add_parser("export", help="write match records (a file, or pulled from the board) as .mat files; "
                       "a Back Alley game record or scorekeeper save as its score sheet")
    p.add_argument("record", nargs="?", help="a game record file (default: pull it from the board); a Back Alley "
                   "record or save gives its score sheet (-o NAME.json: JSON, else text)")
    _target_args(p)
    p.add_argument("-o", "--output", default="-", help="the .mat file to write (default '-': standard output); "
                   "a name ending in .sgf writes gnubg's SGF instead; with --all, a folder")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--list", action="store_true", help="list the matches kept on the board")
    which.add_argument("--match", type=int, metavar="N", help="export match N of the board's list")
    which.add_argument("--all", action="store_true", help="export every match on the board, one file each in "
                       "the folder -o DIR")
    p.add_argument("--sgf", action="store_true", help="write gnubg's SGF instead of .mat (with --all, --match)")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("play", help="play against an engine on the board or the simulator")
    _target_args(p)
    p.add_argument("--engine", default="gnubg", choices=["gnubg"], help="the engine (GNU Backgammon)")
    p.add_argument("--side", choices=["white", "black"], default="black", help="the engine's colour (default black)")
    p.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("room", help="a tournament room: bridge boards to an MQTT broker, live page, recording")
    from pipboard.room import add_arguments

    add_arguments(p)
    p.set_defaults(func=_cmd_room)

    p = sub.add_parser("remote", help="play a match against a board elsewhere, through an MQTT broker")
    _target_args(p)
    from pipboard.remote import add_arguments as add_remote_arguments

    add_remote_arguments(p)
    p.set_defaults(func=_cmd_remote)


def _cmd_room(args):
    from pipboard.room import run

    return run(args)


def _cmd_remote(args):
    from pipboard.remote import run

    return run(args)


def _cmd_deploy(args):
    if args.circuitpython and not getattr(args, "dry_run", False):
        if args.port:
            sys.stderr.write("pipboard deploy: --port is for MicroPython; a CircuitPython board is a drive "
                             "(--drive PATH)\n")
            return 2
        from pipboard.cpdeploy import run as run_circuitpython

        return run_circuitpython(args)
    if not args.circuitpython and (args.drive or args.mpy_cross or args.no_libs):
        sys.stderr.write("pipboard deploy: --drive, --mpy-cross and --no-libs go with --circuitpython\n")
        return 2
    from pipboard.deploy import run

    return run(args)


def _cmd_repl(args):
    from pipboard.deploy import run_repl

    return run_repl(args)


def _cmd_check(args):
    from pipboard.check import run

    return run(args)


def _cmd_monitor(args):
    from pipboard.monitor import run

    return run(target_of(args), once=args.once)


def _cmd_selftest(args):
    from pipboard.boardtest import run

    return run(target_of(args), timeout=args.timeout)


def _cmd_export(args):
    if args.record:
        if args.list or args.all or args.match is not None:
            sys.stderr.write("pipboard export: --list, --match and --all read the board, not a file\n")
            return 2
        from pipboard.basheet import is_backalley_file

        if is_backalley_file(args.record):  # a Back Alley record or scorekeeper save: its score sheet
            from pipboard.basheet import run_export as run_sheet_export

            return run_sheet_export(args.record, args.output)
        from pipboard.matfile import run_export

        return run_export(args.record, args.output)
    from pipboard.export import run

    return run(target_of(args), args.output, listing=args.list, match=args.match, every=args.all, sgf=args.sgf)


def _cmd_play(args):
    from pipboard.engine import run

    return run(target_of(args), side=args.side, games=args.games)


def run_sim(args, options=None):
    try:
        import pipboard.simboard  # noqa: F401  (the firmware app on driver twins)
    except ImportError as exc:
        sys.stderr.write("pipboard sim: the simulated board is not available (%s); using text mode\n" % exc)
        from pipboard.textgame import play

        return play(sys.stdin, sys.stdout, seed=args.seed, options=options)
    from pipboard.websim.server import run

    return run(host=args.host, http_port=args.http_port, protocol_port=args.protocol_port,
               test_mode=args.test, seed=args.seed, open_browser=args.open, out=sys.stdout, flash_dir=args.flash,
               options=options)
