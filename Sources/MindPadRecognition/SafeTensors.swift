import MindPadJSON
/// A reader for the safetensors format (F32 tensors only):
/// 8-byte little-endian header length N, N bytes of JSON header
/// `{"name": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {...}}`,
/// then the data buffer, little-endian, row-major, with no holes.
struct SafeTensors: Sendable {
    struct Tensor: Sendable {
        var shape: [Int]
        var values: [Float]
    }

    var tensors: [String: Tensor]
    var metadata: [String: String]

    static let maxHeaderBytes = 1 << 20

    init(bytes: [UInt8]) throws(RecognitionError) {
        func bad(_ why: String) -> RecognitionError { RecognitionError(.invalidModel, detail: why) }
        guard bytes.count >= 8 else { throw bad("file shorter than 8 bytes") }
        var headerLength: UInt64 = 0
        for k in 0..<8 { headerLength |= UInt64(bytes[k]) << (8 * UInt64(k)) }
        guard headerLength >= 2, headerLength <= UInt64(Self.maxHeaderBytes),
              8 + Int(headerLength) <= bytes.count
        else { throw bad("bad header length \(headerLength)") }
        let dataStart = 8 + Int(headerLength)
        let header: JSON
        do {
            header = try bytes.withUnsafeBufferPointer { (all) throws(JSON.SyntaxError) in
                try JSON.parse(UnsafeBufferPointer(rebasing: all[8..<dataStart]))
            }
        } catch {
            throw bad("header JSON: \(error.reason) at \(error.offset)")
        }
        guard case .object(let members) = header else { throw bad("header is not an object") }
        var tensors: [String: Tensor] = [:]
        var metadata: [String: String] = [:]
        var ranges: [(Int, Int)] = []
        let dataCount = bytes.count - dataStart
        for (name, entry) in members {
            if name == "__metadata__" {
                guard case .object(let pairs) = entry else { throw bad("__metadata__ not an object") }
                for (k, v) in pairs {
                    guard let s = v.string else { throw bad("metadata \(k) not a string") }
                    metadata[k] = s
                }
                continue
            }
            guard tensors[name] == nil else { throw bad("duplicate tensor \(name)") }
            guard entry["dtype"]?.string == "F32" else { throw bad("\(name): only F32 is supported") }
            guard let shapeValues = entry["shape"]?.array, let offsets = entry["data_offsets"]?.array,
                  offsets.count == 2
            else { throw bad("\(name): missing shape or data_offsets") }
            var shape: [Int] = []
            var count = 1
            for v in shapeValues {
                guard let d = v.number, d >= 0, d <= 1e8, d == d.rounded() else { throw bad("\(name): bad shape") }
                shape.append(Int(d))
                count *= Int(d)
                guard count <= 100_000_000 else { throw bad("\(name): too large") }
            }
            guard let b = offsets[0].number, let e = offsets[1].number, b >= 0, e >= b,
                  e <= Double(dataCount), b == b.rounded(), e == e.rounded()
            else { throw bad("\(name): bad data_offsets") }
            let begin = Int(b), end = Int(e)
            guard end - begin == count * 4 else { throw bad("\(name): size does not match shape") }
            var values = [Float](repeating: 0, count: count)
            for i in 0..<count {
                let o = dataStart + begin + 4 * i
                let raw = UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16
                    | UInt32(bytes[o + 3]) << 24
                values[i] = Float(bitPattern: raw)
            }
            tensors[name] = Tensor(shape: shape, values: values)
            ranges.append((begin, end))
        }
        // The buffer must be fully covered with no holes or overlaps.
        ranges.sort { $0.0 < $1.0 }
        var cursor = 0
        for (b, e) in ranges {
            guard b == cursor else { throw bad("data buffer has a hole or overlap at \(b)") }
            cursor = e
        }
        guard cursor == dataCount else { throw bad("data buffer has \(dataCount - cursor) unused bytes") }
        self.tensors = tensors
        self.metadata = metadata
    }
}
