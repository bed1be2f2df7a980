// PitchsideTransport: see docs/ARCHITECTURE.md.
