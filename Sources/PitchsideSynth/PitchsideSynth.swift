// PitchsideSynth: see docs/ARCHITECTURE.md.
