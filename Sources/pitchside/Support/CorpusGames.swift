import ArgumentParser
import Foundation

/// The games of a synthetic corpus directory: its index.json (as `pitchside synth corpus`
/// writes it), else every sub-directory holding a truth.json, by name.
enum CorpusGames {
    static func list(_ corpus: String) throws -> [(name: String, directory: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("no such corpus directory: \(corpus)")
        }
        let index = corpus + "/index.json"
        if let data = FileManager.default.contents(atPath: index) {
            struct Entry: Decodable { var name: String; var directory: String }
            return try JSONDecoder().decode([Entry].self, from: data).map { ($0.name, corpus + "/" + $0.directory) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted()
        let found = names.filter { FileManager.default.fileExists(atPath: corpus + "/" + $0 + "/truth.json") }
        guard !found.isEmpty else { throw ValidationError("\(corpus): no index.json and no GAME/truth.json") }
        return found.map { ($0, corpus + "/" + $0) }
    }
}
