// PitchsideVision: see docs/ARCHITECTURE.md.
