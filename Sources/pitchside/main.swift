print("pitchside")
