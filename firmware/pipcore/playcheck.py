"""Reading a play given as text or moves (``13/7* 8/7``): the parser of gnubg notation and the
checker of host plays and typed plays.

Split from ``pipcore.rules`` so that the board loads it only when a host or a
person types a play (``rules.check_play`` imports it on demand); the hands on
the board never need it.
"""

from pipcore.notation import NotationError, format_play
from pipcore.position import BAR
from pipcore.rules import AmbiguousPlayError, IllegalPlayError, Turn, apply_move, point_name, single_move_error


def _point(text, whole):
    t = text.strip().lower()
    if t in ("bar", "b", "25"):
        return BAR
    if t in ("off", "o", "0"):
        return 0
    try:
        p = int(t)
    except ValueError:
        raise NotationError("%r is not a point in %r (use 1-24, bar or off)" % (text, whole))
    if not 1 <= p <= 24:
        raise NotationError("point %d is out of range in %r" % (p, whole))
    return p


def parse_play(text):
    """Parse a whole play; returns a list of ``(from, to, hit)`` segments.

    An empty string or ``-`` (no move possible) gives an empty list.
    """
    if not isinstance(text, str):
        raise NotationError("a play is text such as '13/9 6/5*'")
    segments = []
    words = text.replace(",", " ").split()
    if words == ["-"] or words == ["pass"]:
        return segments
    for word in words:
        count = 1
        if word.endswith(")"):
            open_at = word.find("(")
            if open_at < 0:
                raise NotationError("unbalanced parenthesis in %r" % word)
            try:
                count = int(word[open_at + 1:-1])
            except ValueError:
                raise NotationError("bad repeat count in %r" % word)
            if not 1 <= count <= 4:
                raise NotationError("repeat count must be 1 to 4 in %r" % word)
            word = word[:open_at]
        parts = word.split("/")
        if len(parts) < 2:
            raise NotationError("%r is not a move: write from/to, e.g. 13/9" % word)
        chain = []
        prev = None
        for part in parts:
            hit = None
            if part.endswith("*"):
                hit = True
                part = part[:-1]
            p = _point(part, word)
            if prev is not None:
                if p == BAR:
                    raise NotationError("a checker cannot move to the bar in %r" % word)
                if prev == 0:
                    raise NotationError("a borne-off checker cannot move on in %r" % word)
                if p != 0 and p >= prev:
                    raise NotationError("%r moves backwards: checkers move toward your 1-point" % word)
                chain.append((prev, p, hit))
            elif hit:
                raise NotationError("a hit mark belongs on the landing point in %r" % word)
            prev = p
        for _ in range(count):
            segments.extend(chain)
    return segments


def check_play(position, dice, moves):
    """Check a proposed play; return ``(code, result)`` or raise IllegalPlayError.

    ``moves`` is a list of ``(from, to)`` or ``(from, to, hit)`` segments as
    ``pipcore.notation.parse_play`` returns them. A segment spanning several
    dice (``13/5`` with 5-3) is split every way the dice allow. A play is a
    set of moves, so the order in which segments are written does not matter
    (``24/18 bar/21`` is ``bar/21 24/18``): the moves are checked in the one
    order that is always legal when any order is (highest source first).

    Hit marks ``*`` choose between readings (``13/7`` with 4-2 and a blot on
    9 is ``13/11/7``; ``13/7*`` is ``13/9*/7``). Raises AmbiguousPlayError
    (an IllegalPlayError) when the text still fits two legal plays with
    different results (``13/7*`` with blots on both 9 and 11).
    """
    turn = Turn(position, dice)
    if turn.double:
        dice_left = [turn.high] * 4
    else:
        dice_left = [turn.high, turn.low]
    segments = []
    for seg in moves:
        s, t = seg[0], seg[1]
        if not 1 <= s <= BAR:
            raise IllegalPlayError("there is no point %r to move from" % (s,))
        if not 0 <= t < BAR:
            raise IllegalPlayError("there is no point %r to move to" % (t,))
        if t and t >= s:
            raise IllegalPlayError("checkers move toward your 1-point: %s/%s goes backwards" % (_pt(s), _pt(t)))
        segments.append((s, t, seg[2] if len(seg) > 2 else None))
    _check_sources(position, segments)
    readings = []
    _readings(segments, 0, dice_left, [], readings)
    if not readings:
        raise IllegalPlayError(_dice_mismatch(segments, dice_left, turn))
    legal = []  # [(result, how well the hit marks fit, steps with hits)]
    first_error = None
    most_used = -1
    least_short = None  # a playable reading that used too few dice
    for steps in readings:
        pos, done, error = _play_steps(position, steps)
        if error is not None:
            first_error = first_error or error
            continue
        if turn.result_for(pos) is None:
            if len(steps) > most_used:
                most_used = len(steps)
                least_short = steps
            continue
        # 2: the hit marks match exactly; 1: every marked segment hits; 0: neither
        fit = 2
        for i in range(len(segments)):
            hit = _segment_hit(done, i)
            if segments[i][2] and not hit:
                fit = 0
                break
            if hit and not segments[i][2]:
                fit = 1
        legal.append((pos, fit, done))
    if legal:
        chosen = _choose(legal)
        if chosen is not None:
            return turn.result_for(chosen), chosen
        raise AmbiguousPlayError(_ambiguity(legal))
    if least_short is not None:
        raise IllegalPlayError(_usage_error(turn, least_short))
    raise IllegalPlayError(first_error)


def _check_sources(position, segments):
    """Refuse segments that start where no checker is or can arrive."""
    for s, _, _ in segments:
        need = 0
        arrive = 0
        for s2, t2, _ in segments:
            if s2 == s:
                need += 1
            if t2 == s:
                arrive += 1
        have = position.me[s]
        if need > have + arrive:
            if have == 0:
                raise IllegalPlayError("you have no checker on %s" % point_name(s))
            raise IllegalPlayError("you have only %d checker%s on %s"
                                   % (have, "" if have == 1 else "s", point_name(s)))


def _readings(segments, i, dice_left, acc, out):
    """Every way to split the segments into single-die steps ``(from, to, die, segment)``.

    Recursion: one level per segment that still finds a die, at most the four
    dice of a double (a segment with no die left ends the branch).
    """
    if i == len(segments):
        out.append(list(acc))
        return
    s, t, _ = segments[i]
    chains = []
    _chains(s, t, dice_left, [], chains)
    for chain in chains:
        left = list(dice_left)
        cur = s
        n = len(acc)
        for d in chain:
            nxt = cur - d
            acc.append((cur, nxt if nxt > 0 else 0, d, i))
            left.remove(d)
            cur = nxt
        _readings(segments, i + 1, left, acc, out)
        del acc[n:]


def _chains(cur, t, dice_left, prefix, out):
    """Die sequences carrying one checker from ``cur`` to ``t`` (0 = off).

    Recursion: each level uses up one die: at most four levels."""
    tried = []
    for k in range(len(dice_left)):
        d = dice_left[k]
        if d in tried:
            continue
        tried.append(d)
        nxt = cur - d
        if nxt == t or (t == 0 and nxt < 0):
            out.append(prefix + [d])
        elif nxt > t:
            _chains(nxt, t, dice_left[:k] + dice_left[k + 1:], prefix + [d], out)


def _play_steps(position, steps):
    """Play steps highest source first; ``(result, steps_with_hits, error)``."""
    order = sorted(steps, key=_minus_source)
    pos = position.copy()
    done = []
    for s, t, d, i in order:
        error = single_move_error(pos, s, d)
        if error is not None:
            return None, None, error
        hit = t > 0 and pos.opp[25 - t] == 1
        apply_move(pos, s, t)
        done.append((s, t, hit, i))
    return pos, done, None


def _minus_source(step):
    return -step[0]


def _segment_hit(done, i):
    for step in done:
        if step[3] == i and step[2]:
            return True
    return False


def _choose(legal):
    """The one result the text means, or None when it stays ambiguous.

    As in gnubg notation, a hit is marked with ``*`` and an unmarked landing
    does not hit: readings whose hits match the marks win; a play typed
    without its marks is still understood when only one result fits.
    """
    for need in (2, 1, 0):
        found = None
        for pos, fit, _ in legal:
            if fit < need:
                continue
            if found is None:
                found = pos
            elif found != pos:
                return None
        if found is not None:
            return found
    return None


def _ambiguity(legal):
    texts = []
    for _, _, done in legal:
        text = format_play([(s, t, hit or None) for s, t, hit, _ in done])
        if text not in texts:
            texts.append(text)
    return "ambiguous: this can be %s; write the intermediate points" % " or ".join(texts)


def _dice_mismatch(segments, dice_left, turn):
    """Why no split of the segments fits the dice."""
    for k in range(len(segments)):
        out = []
        _readings(segments[:k + 1], 0, dice_left, [], out)
        if out:
            continue
        s, t, _ = segments[k]
        alone = []
        _readings(segments[k:k + 1], 0, dice_left, [], alone)
        if k and alone:
            return "no dice left for %s/%s" % (_pt(s), _pt(t))
        return "the dice %s cannot make %s/%s" % (_dice_text(turn), _pt(s), _pt(t))
    return "the play does not fit the dice %s" % _dice_text(turn)


def _usage_error(turn, steps):
    """The obligation (O1, O2, B4) a playable but short play breaks."""
    used = len(steps)
    if turn.double:
        return "you must play %d %ss; this play uses %d" % (turn.dice_used, turn.high, used)
    if turn.dice_used == 2:
        return "you must use both dice"
    if turn.dice_used == 1:
        legal_die = turn.moves(turn.plays[0])[0][2]
        if used == 1 and steps[0][2] != legal_die and legal_die == turn.high:
            return "you must play the higher die (%d)" % turn.high
        return "you must play the %d" % legal_die
    return "no move is possible with %s" % _dice_text(turn)


def _dice_text(turn):
    return "%d-%d" % (turn.high, turn.low)


def _pt(p):
    return "bar" if p == BAR else ("off" if p == 0 else str(p))


def single_steps(position, moves, dice, dice_used):
    """``moves`` as ``[(from, to)]`` if each is one die's move, playable in that order; else None.

    The record keeps a play as the player made it when it was made one die
    at a time (as the board senses it and as .mat files list it).
    """
    if len(moves) != dice_used:
        return None
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    pos = position.copy()
    out = []
    for seg in moves:
        s, t = seg[0], seg[1]
        span = s - t
        if t == 0:
            fits = [d for d in left if d >= span]
            die = span if span in fits else (min(fits) if fits else 0)
        else:
            die = span if span in left else 0
        if not die or single_move_error(pos, s, die) is not None:
            return None
        apply_move(pos, s, t)
        left.remove(die)
        out.append((s, t))
    return out
