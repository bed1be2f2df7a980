// PitchsidePose: BlazePose on LiteRT. See docs/ARCHITECTURE.md.
