// PitchsideMedia: see docs/ARCHITECTURE.md.
