// PitchsideNodes: see docs/ARCHITECTURE.md.
