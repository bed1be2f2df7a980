import PitchsideCore

extension PSTrajectoryObservation {
    /// The wire form of `observation`, made for the frame described by `header`.
    public init(_ observation: TrajectoryObservation, header: PSHeader) {
        self.init()
        self.header = header
        uuid = observation.uuid.uuidString
        detectedPoints = observation.detectedPoints.map { p in
            var w = PSTrajectoryPoint()
            w.x = p.x
            w.y = p.y
            w.ptsUs = p.ptsUs
            return w
        }
        projectedPoints = observation.projectedPoints.map { p in
            var w = PSPoint()
            w.x = p.x
            w.y = p.y
            return w
        }
        a = observation.a
        b = observation.b
        c = observation.c
        x0 = observation.x0
        vx = observation.vx
        y0 = observation.y0
        vy = observation.vy
        ay = observation.ay
        confidence = observation.confidence
        timeRangeStartUs = observation.timeRangeStartUs
        timeRangeEndUs = observation.timeRangeEndUs
        objectSize = observation.objectSize
    }
}
