import ArgumentParser
import Foundation
import PitchsideTransport

/// `pitchside keys`: makes CURVE key pairs for encrypted, authenticated tcp endpoints.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make a CURVE key pair (NAME.key secret, NAME.pub public) for encrypted tcp endpoints.",
        discussion: """
            Every process that sets curve.secret_key (or --curve-secret-key) encrypts its tcp sockets:
            the endpoints it binds admit only clients whose public keys are allowed (curve.allow), and
            it connects only to servers whose public key it was given (curve.server_key). For example,
            one key pair for the servers (capture, aggregator) and one per client machine:
              pitchside keys cluster --out keys          # keys/cluster.key, keys/cluster.pub
              pitchside keys court-2 --out keys/clients  # a worker machine's pair
            See docs/transport.md (Security).
            """
    )

    @Argument(help: "Name of the key pair (the file names).")
    var name: String

    @Option(help: ArgumentHelp("Directory for the key files.", valueName: "dir"))
    var out = "."

    func run() throws {
        guard !name.isEmpty, !name.contains("/") else { throw ValidationError("a key name cannot be empty or contain '/'") }
        do {
            let pair = try CurveKeyPair.generate()
            let files = try pair.write(directory: out, name: name)
            print("secret key: \(files.secret) (keep it on this machine; mode 0600)")
            print("public key: \(files.public) \(pair.publicKey)")
        } catch {
            fail("\(error)")
        }
    }
}
