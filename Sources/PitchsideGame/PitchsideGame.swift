// PitchsideGame: the pure heart of the aggregator. Worker results go in
// (`ResultMerger` puts them in media-time order, `Game` runs one stream's game),
// game events come out, and `EventLog` keeps them durably. See docs/game.md.
