"""Research adapters: the games behind PettingZoo (AEC), Gymnasium and OpenSpiel.

Install them with `pip install 'matanui[research]'`. Nothing here is imported by the rest of
matanui, and this package imports no adapter library until one of its modules is used:

- `matanui.envs.pettingzoo.env(game, ...)`: an AEC environment, every seat an agent;
- `matanui.envs.gymnasium.env(game, seat=0, opponents="heuristic", ...)`: one seat learns,
  matanui bots play the others;
- `matanui.envs.openspiel.load(game, ...)`: the game as an OpenSpiel game (registered as
  `matanui_<game>`).

All three share `matanui.envs.encoding`: each game's fixed action list and observation tensor.
"""
