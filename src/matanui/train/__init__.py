"""A small numpy-only trainer for the research environments (`matanui train`): masked-softmax
actor-critic with PPO's clipped objective, written to the trained-policy file format
(matanui.envs.checkpoint) every player of the games can load."""
