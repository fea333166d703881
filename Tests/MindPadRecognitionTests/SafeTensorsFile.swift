import MindPadJSON
@testable import MindPadRecognition

/// A safetensors file of these tensors (F32, little-endian) and metadata.
func safetensorsFile(_ tensors: [(String, SafeTensors.Tensor)], metadata: [String: String]) -> [UInt8] {
    var members: [(String, JSON)] = [("__metadata__", .object(metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))]
    var data: [UInt8] = []
    for (name, t) in tensors {
        let begin = data.count
        for v in t.values { withUnsafeBytes(of: v.bitPattern.littleEndian) { data += $0 } }
        members.append((name, .object([("dtype", .string("F32")), ("shape", .array(t.shape.map { .int($0) })),
                                       ("data_offsets", .array([.int(begin), .int(data.count)]))])))
    }
    let header = Array(JSON.object(members).text.utf8)
    return (0..<8).map { UInt8((UInt64(header.count) >> (8 * UInt64($0))) & 0xFF) } + header + data
}
