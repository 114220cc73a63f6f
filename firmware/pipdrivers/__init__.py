"""Hardware drivers of the board.  Pins or callables are injected; only
``board_pins`` imports ``machine``.

Building them (the composition root, ``firmware/main.py``)::

    from pipdrivers import board_pins
    hw = board_pins.build()            # a pipdrivers.board.Board
    # the simulator: pipboard.twins.VirtualBoard().board, same class, twins inside

Running them (times in ms from ``time.ticks_ms()``; see ``pipdrivers.board``
for the periods)::

    every 5 ms:   if hw.scanner.scan(now): code = hw.scanner.pop() ...
                  code >> 1 = scan bit (geometry.sensor_at), code & 1 = closed;
                  hw.scanner.popped_time = when it settled;
                  geometry.location_counts(hw.scanner.bits, counts) = counts per location
    every 10 ms:  if hw.buttons.poll(now): code = hw.buttons.pop() ...
                  code >> 2 = button (geometry.BTN_*), code & 3 = DOWN/SHORT/LONG/UP
    every 20 ms:  draw with hw.pixels.set(i, r, g, b, effect) / hw.display.*,
                  then hw.pixels.show(now)
    on change:    hw.state_store.save(bytes) / load()
    per action:   hw.match_store.append(match, offset, frame) (pipdrivers.recstore)
    per roll:     hw.dice.roll(); new match: hw.new_dice(); hw.dice.commitment,
                  hw.dice.reveal(), dice.verify() on the host

None of scan, poll, set or show allocates (tests/mp/test_zero_alloc.py).
"""
