/// One process a `Supervisor` keeps running.
public struct ChildSpec: Sendable, Equatable {
    /// Short name used in log lines, e.g. "trajectory".
    public var name: String
    /// Full path of the executable.
    public var executable: String
    public var arguments: [String]
    /// Extra environment variables, added to the supervisor's own.
    public var environment: [String: String]
    /// Restart the child when it exits (with any status) while the cluster runs.
    /// A finite job (capture of a file) sets this to false and its exit ends the run
    /// when `endsRunOnExit` is set.
    public var restartOnExit: Bool
    /// When this child exits normally, the supervisor stops the whole cluster.
    public var endsRunOnExit: Bool

    public init(name: String, executable: String, arguments: [String], environment: [String: String] = [:],
                restartOnExit: Bool = true, endsRunOnExit: Bool = false) {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.restartOnExit = restartOnExit
        self.endsRunOnExit = endsRunOnExit
    }
}
