import Foundation

/// Any JSON value, decoded from a journal line only to be written again as
/// text (`GameResultRecord.legacyDetails`): this layer does not look into
/// a kind's detail.
struct JournalJSON: Decodable {
    let text: String

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            let members = try object.allKeys.map { key in
                Self.quoted(key.stringValue) + ":" + (try object.decode(JournalJSON.self, forKey: key)).text
            }
            text = "{" + members.joined(separator: ",") + "}"
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [String] = []
            while !array.isAtEnd { items.append(try array.decode(JournalJSON.self).text) }
            text = "[" + items.joined(separator: ",") + "]"
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                text = "null"
            } else if let b = try? value.decode(Bool.self) {
                text = b ? "true" : "false"
            } else if let i = try? value.decode(Int64.self) {
                text = String(i)
            } else if let d = try? value.decode(Double.self) {
                text = d.isFinite ? String(d) : "null"
            } else {
                text = Self.quoted(try value.decode(String.self))
            }
        }
    }

    private static func quoted(_ s: String) -> String {
        String(decoding: (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
