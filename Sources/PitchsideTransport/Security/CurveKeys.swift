import CZeroMQ
import Foundation

/// A CURVE key pair (Curve25519), each key in Z85 text: 40 printable characters.
///
/// Files: `NAME.key` holds the secret key (mode 0600), `NAME.pub` the public key; each is one
/// line of Z85, and lines starting with `#` are comments. `pitchside keys` writes them.
///
/// ```swift
/// let pair = try CurveKeyPair.generate()
/// try pair.write(directory: "keys", name: "capture")      // keys/capture.key, keys/capture.pub
/// let again = try CurveKeyPair(secretKeyFile: "keys/capture.key")
/// ```
public struct CurveKeyPair: Sendable, Equatable {
    public let publicKey: String
    public let secretKey: String

    /// A fresh key pair from libzmq (libsodium).
    public static func generate() throws -> CurveKeyPair {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else {
            throw TransportError.last("make a CURVE key pair (is libzmq built with CURVE?)")
        }
        return CurveKeyPair(publicKey: String(cString: publicKey), secretKey: String(cString: secretKey))
    }

    /// The pair of a secret key (the public key is derived from it).
    public init(secretKey: String) throws {
        try CurveKeys.validate(secretKey, what: "secret key")
        var publicKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicKey, secretKey) == 0 else {
            throw TransportError.last("derive a CURVE public key")
        }
        self.publicKey = String(cString: publicKey)
        self.secretKey = secretKey
    }

    /// The pair of the secret key in `secretKeyFile`.
    public init(secretKeyFile path: String) throws {
        try self.init(secretKey: try CurveKeys.read(path, what: "secret key"))
    }

    private init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Writes `directory/name.key` (mode 0600) and `directory/name.pub`; refuses to overwrite.
    @discardableResult
    public func write(directory: String, name: String) throws -> (secret: String, public: String) {
        let secretPath = "\(directory)/\(name).key", publicPath = "\(directory)/\(name).pub"
        for path in [secretPath, publicPath] where FileManager.default.fileExists(atPath: path) {
            throw CurveKeyError("\(path) exists; not overwriting a key")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let header = "# Pitchside CURVE key (Z85), made by pitchside keys\n"
        guard FileManager.default.createFile(atPath: secretPath, contents: Data((header + secretKey + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CurveKeyError("cannot write \(secretPath)")
        }
        try (header + publicKey + "\n").write(toFile: publicPath, atomically: true, encoding: .utf8)
        return (secretPath, publicPath)
    }
}

/// Reading and checking Z85 keys.
public enum CurveKeys {
    /// The key in a key file (the first line that is not empty or a comment).
    public static func read(_ path: String, what: String = "key") throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CurveKeyError("cannot read \(what) file \(path)")
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let key = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            throw CurveKeyError("\(path) holds no \(what)")
        }
        do {
            try validate(key, what: what)
        } catch let error as CurveKeyError {
            throw CurveKeyError("\(path): \(error.message)")
        }
        return key
    }

    /// Public keys from files and directories (every `*.pub` in a directory).
    public static func readPublicKeys(_ paths: [String]) throws -> [String] {
        var keys: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CurveKeyError("no such key file or directory: \(path)")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".pub") }.sorted()
                keys += try names.map { try read("\(path)/\($0)", what: "public key") }
            } else {
                keys.append(try read(path, what: "public key"))
            }
        }
        return keys
    }

    /// Throws unless `key` is 40 characters of valid Z85 (32 bytes).
    public static func validate(_ key: String, what: String = "key") throws {
        guard key.utf8.count == 40 else {
            throw CurveKeyError("a CURVE \(what) is 40 Z85 characters, not \(key.utf8.count)")
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard zmq_z85_decode(&bytes, key) != nil else {
            throw CurveKeyError("not a Z85 CURVE \(what)")
        }
    }

    /// The Z85 text of a 32-byte binary key (as ZAP hands them over).
    static func z85(_ binary: Data) -> String? {
        guard binary.count == 32 else { return nil }
        var text = [CChar](repeating: 0, count: 41)
        let encoded = binary.withUnsafeBytes { raw in
            zmq_z85_encode(&text, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 32)
        }
        return encoded == nil ? nil : String(cString: text)
    }
}

public struct CurveKeyError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
