// PitchsideGame: game state, throws, scoring, event log. See docs/ARCHITECTURE.md.
