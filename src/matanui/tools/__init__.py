"""Tools run against a started web service (`python -m matanui.tools.NAME`): load (many
players at once) and abuse (one client trying to slow everyone down). They drive the server
from outside; nothing in the library imports them."""
