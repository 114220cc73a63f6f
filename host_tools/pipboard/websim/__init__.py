"""The browser simulator: the simulated board served to a web page and on the protocol port."""
