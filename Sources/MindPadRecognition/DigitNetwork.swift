/// mindpad-cnn-v1, the recognition network, as tight SIMD loops (HWC layout,
/// output channels in the vector lanes):
///
///     28×28×1 ─conv3×3 same─▶ 28×28×8 ─ReLU, max 2×2─▶ 14×14×8
///             ─conv3×3 same─▶ 14×14×16 ─ReLU, max 2×2─▶ 7×7×16
///             ─conv3×3 valid─▶ 5×5×32 ─ReLU─▶ 800 ─dense─▶ 64 ─ReLU─▶ dense ─▶ 10 logits
///
/// A file may also carry an 11th output, "not a digit", in one of two forms:
/// an 11th column of `fc2` (64×11; the last layer computes 12 lanes either way,
/// so it costs no time), or its own head on the 800 conv features, `nad1`
/// 800→H (H a multiple of 4, at most 64), ReLU, `nad2` H→1 (800·H + H more
/// multiply-adds, done only for the non-zero features like fc1's). `Recognizer`
/// refuses a drawing where it is the largest logit.
///
/// 57,802 parameters, 449,280 multiply-adds (dense; about a third are done, see `forward`). The weights are immutable after
/// loading, so one instance serves every thread; per-call state lives in a
/// `Recognizer.Workspace`.
///
/// The same layers may be wider (`NetworkWidths`); such a network runs
/// `forwardAnyWidth`, loops over its widths. The widths above keep the
/// unrolled `forward`: every single digit, live guess and candidate digit of
/// a number goes through it, and only the number digits the candidates
/// network is unsure of through the number network's 16/32/64/128.
final class DigitNetwork: @unchecked Sendable {
    static let architecture = "mindpad-cnn-v1"
    static let shapes = shapes(for: .v1, outputs: 10)
    /// Of the 10-output network (an 11th output adds 65 weights and 64 multiply-adds).
    static let parameterCount = shapes.reduce(0) { $0 + $1.1.reduce(1, *) }
    static let multiplyAdds = NetworkWidths.v1.multiplyAdds

    /// The tensors' names and shapes for these widths (fc2 with `outputs` columns).
    static func shapes(for w: NetworkWidths, outputs: Int) -> [(String, [Int])] {
        [
            ("conv1.weight", [3, 3, 1, w.conv1]), ("conv1.bias", [w.conv1]),
            ("conv2.weight", [3, 3, w.conv1, w.conv2]), ("conv2.bias", [w.conv2]),
            ("conv3.weight", [3, 3, w.conv2, w.conv3]), ("conv3.bias", [w.conv3]),
            ("fc1.weight", [w.features, w.hidden]), ("fc1.bias", [w.hidden]),
            ("fc2.weight", [w.hidden, outputs]), ("fc2.bias", [outputs]),
        ]
    }

    let widths: NetworkWidths

    // Written once in init, read-only afterwards (hence @unchecked Sendable). Layouts
    // keep output channels contiguous so they load as SIMD4 vectors (16-byte aligned).
    // Read by forwardAnyWidth too (DigitNetwork+AnyWidth.swift), hence not private.
    let w1: UnsafeMutablePointer<Float>  // [tap 9][out 8]
    let b1: UnsafeMutablePointer<Float>  // [8]
    let w2: UnsafeMutablePointer<Float>  // [tap 9][in 8][out 16]
    let b2: UnsafeMutablePointer<Float>  // [16]
    let w3: UnsafeMutablePointer<Float>  // [tap 9][in 16][out 32]
    let b3: UnsafeMutablePointer<Float>  // [32]
    let f1: UnsafeMutablePointer<Float>  // [in 800][out 64]
    let c1: UnsafeMutablePointer<Float>  // [64]
    /// 10, or 11 when the file has the "not a digit" output (lane 10 of the logits).
    let outputs: Int
    let f2: UnsafeMutablePointer<Float>  // [in 64][out 12] (10 or 11, the rest zero columns)
    let c2: UnsafeMutablePointer<Float>  // [12]
    // (A wider network: the same layouts with its own widths.)
    /// Width of the "not a digit" head's hidden layer; 0 without the head.
    let headWidth: Int
    private let h1: UnsafeMutablePointer<Float>  // [in 800][out H] (empty without the head)
    private let hb1: UnsafeMutablePointer<Float>  // [H]
    private let h2: UnsafeMutablePointer<Float>  // [H]
    private let hb2: Float

    private static func buffer(_ values: [Float], count: Int? = nil) -> UnsafeMutablePointer<Float> {
        let n = count ?? values.count
        let p = UnsafeMutableRawPointer.allocate(byteCount: n * 4, alignment: 64).bindMemory(to: Float.self, capacity: n)
        p.initialize(repeating: 0, count: n)
        p.update(from: values, count: min(n, values.count))
        return p
    }

    init(_ file: SafeTensors) throws(RecognitionError) {
        if let arch = file.metadata["architecture"], arch != Self.architecture {
            throw RecognitionError(.invalidModel, detail: "architecture \(arch), expected \(Self.architecture)")
        }
        var t: [String: [Float]] = [:]
        let laneOutputs = file.tensors["fc2.bias"]?.shape == [11] ? 11 : 10
        let head = try Self.head(file)
        if head != nil && laneOutputs == 11 {
            throw RecognitionError(.invalidModel, detail: "both an 11th fc2 lane and a \"not a digit\" head")
        }
        let outputs = head == nil ? laneOutputs : 11
        self.outputs = outputs
        let widths = try Self.widths(file)
        if widths != .v1 && head != nil {
            throw RecognitionError(.invalidModel, detail: "a \"not a digit\" head on a network of other widths than mindpad-cnn-v1's")
        }
        self.widths = widths
        for (name, shape) in Self.shapes(for: widths, outputs: laneOutputs) {
            guard let tensor = file.tensors[name] else {
                throw RecognitionError(.invalidModel, detail: "missing tensor \(name)")
            }
            guard tensor.shape == shape else {
                throw RecognitionError(.invalidModel, detail: "\(name) has shape \(tensor.shape), expected \(shape)")
            }
            guard tensor.values.allSatisfy(\.isFinite) else {
                throw RecognitionError(.invalidModel, detail: "\(name) has non-finite values")
            }
            t[name] = tensor.values
        }
        // HWIO and (in, out) are already the layouts used here.
        w1 = Self.buffer(t["conv1.weight"]!); b1 = Self.buffer(t["conv1.bias"]!)
        w2 = Self.buffer(t["conv2.weight"]!); b2 = Self.buffer(t["conv2.bias"]!)
        w3 = Self.buffer(t["conv3.weight"]!); b3 = Self.buffer(t["conv3.bias"]!)
        f1 = Self.buffer(t["fc1.weight"]!); c1 = Self.buffer(t["fc1.bias"]!)
        let fc2 = t["fc2.weight"]!
        var padded = [Float](repeating: 0, count: widths.hidden * 12)
        for i in 0..<widths.hidden { for o in 0..<laneOutputs { padded[i * 12 + o] = fc2[i * laneOutputs + o] } }
        f2 = Self.buffer(padded); c2 = Self.buffer(t["fc2.bias"]!, count: 12)
        headWidth = head?.width ?? 0
        h1 = Self.buffer(head?.w1 ?? [], count: max(800 * headWidth, 4)); hb1 = Self.buffer(head?.b1 ?? [], count: max(headWidth, 4))
        h2 = Self.buffer(head?.w2 ?? [], count: max(headWidth, 4)); hb2 = head?.b2 ?? 0
    }

    /// fc2: `count` hidden units (ReLU) -> 10 or 11 logits (12 lanes, the
    /// unused ones 0), skipping zero hidden units.
    @inline(__always)
    func outputLayer(_ hidden: UnsafeMutablePointer<Float>, count: Int, into logits: UnsafeMutablePointer<Float>) {
        var a0 = load4(c2, 0), a1 = load4(c2, 4), a2 = load4(c2, 8)
        for i in 0..<count {
            let v = relu(hidden[i])
            if v == 0 { continue }
            let u = SIMD4<Float>(repeating: v)
            let w = f2 + i * 12
            a0 += load4(w, 0) * u; a1 += load4(w, 4) * u; a2 += load4(w, 8) * u
        }
        store4(a0, logits, 0); store4(a1, logits, 4); store4(a2, logits, 8)
    }

    /// The widths the file's conv and fc1 tensors have: mindpad-cnn-v1's, or
    /// others `forwardAnyWidth` can run (`NetworkWidths.runnable`).
    private static func widths(_ file: SafeTensors) throws(RecognitionError) -> NetworkWidths {
        func last(_ name: String, rank: Int) throws(RecognitionError) -> Int {
            guard let tensor = file.tensors[name] else { throw RecognitionError(.invalidModel, detail: "missing tensor \(name)") }
            guard tensor.shape.count == rank, let n = tensor.shape.last else {
                throw RecognitionError(.invalidModel, detail: "\(name) has shape \(tensor.shape)")
            }
            return n
        }
        let w = NetworkWidths(conv1: try last("conv1.weight", rank: 4), conv2: try last("conv2.weight", rank: 4),
                              conv3: try last("conv3.weight", rank: 4), hidden: try last("fc1.weight", rank: 2))
        guard w == .v1 || w.runnable else {
            throw RecognitionError(.invalidModel, detail: "widths \(w.conv1)/\(w.conv2)/\(w.conv3)/\(w.hidden): "
                                   + "conv1 a multiple of 4 up to 64, the others multiples of 16 up to 64, 128 and 256")
        }
        return w
    }

    /// The "not a digit" head's tensors (`nad1.weight` [800, H], `nad1.bias` [H],
    /// `nad2.weight` [H, 1], `nad2.bias` [1]) when the file has them: all or none.
    private static func head(_ file: SafeTensors) throws(RecognitionError) -> (width: Int, w1: [Float], b1: [Float], w2: [Float], b2: Float)? {
        let names = ["nad1.weight", "nad1.bias", "nad2.weight", "nad2.bias"]
        let present = names.filter { file.tensors[$0] != nil }
        if present.isEmpty { return nil }
        guard present.count == names.count else {
            throw RecognitionError(.invalidModel, detail: "\"not a digit\" head incomplete: only \(present)")
        }
        let w1 = file.tensors["nad1.weight"]!, b1 = file.tensors["nad1.bias"]!
        let w2 = file.tensors["nad2.weight"]!, b2 = file.tensors["nad2.bias"]!
        let h = w1.shape.count == 2 ? w1.shape[1] : 0
        guard w1.shape == [800, h], h > 0, h % 4 == 0, h <= 64, b1.shape == [h], w2.shape == [h, 1], b2.shape == [1] else {
            throw RecognitionError(.invalidModel, detail: "\"not a digit\" head shapes \(w1.shape) \(b1.shape) \(w2.shape) \(b2.shape), "
                                   + "expected [800, H] [H] [H, 1] [1] with H a multiple of 4 up to 64")
        }
        for (name, tensor) in zip(names, [w1, b1, w2, b2]) where !tensor.values.allSatisfy(\.isFinite) {
            throw RecognitionError(.invalidModel, detail: "\(name) has non-finite values")
        }
        return (h, w1.values, b1.values, w2.values, b2.values[0])
    }

    deinit {
        for p in [w1, b1, w2, b2, w3, b3, f1, c1, f2, c2, h1, hb1, h2] { p.deallocate() }
    }

    /// Runs the network on `ws.image` (28×28) and writes `outputs` logits to `ws.logits` (12 lanes, the rest 0).
    ///
    /// The input and every ReLU output are mostly zeros (about 18 %, 34 %, 43 % and
    /// 21 % non-zero for conv1, conv2, conv3 and fc1), so each layer first finds its
    /// non-zero inputs (branch-free: a list for conv1 and fc1, a bit per channel
    /// of each pooled position for conv2 and conv3) and then only multiplies
    /// those: about a third of the dense multiply-adds, with exactly the same
    /// sums (adding 0 × w changes nothing, and the weights are checked finite).
    /// `ReferenceTests` checks the logits against plain dense loops.
    func forward(_ ws: Recognizer.Workspace) {
        precondition(ws.widths.holds(widths), "a workspace made for smaller networks")
        guard widths == .v1 else { return forwardAnyWidth(ws) }
        let image = ws.image, act1 = ws.act1, act2 = ws.act2, act3 = ws.act3
        let hidden = ws.hidden, logits = ws.logits
        let nzIndex = ws.nzIndex, nzValue = ws.nzValue
        let mask2 = ws.mask2, value2 = ws.value2
        let mask3 = ws.mask3, value3 = ws.value3

        // conv1 by scatter from the non-zero pixels into a 30×30×8 buffer: output
        // pixel (y, x) lives at (y + 1, x + 1), the border just absorbs the spill.
        let bias1a = load4(b1, 0), bias1b = load4(b1, 4)
        for i in 0..<900 {
            store4(bias1a, act1, i * 8)
            store4(bias1b, act1, i * 8 + 4)
        }
        var n = 0
        for i in 0..<784 {
            let v = image[i]
            nzIndex[n] = Int32(truncatingIfNeeded: i)
            nzValue[n] = v
            n &+= nonZero(v)
        }
        for k in 0..<n {
            let i = Int(nzIndex[k])
            let r = i / 28, c = i - (i / 28) * 28
            let v = SIMD4<Float>(repeating: nzValue[k])
            let base = act1 + ((r + 2) * 30 + c + 2) * 8
            for ky in 0..<3 {
                for kx in 0..<3 {
                    let o = base - (ky * 30 + kx) * 8
                    let w = (ky * 3 + kx) * 8
                    store4(load4(o, 0) + load4(w1, w) * v, o, 0)
                    store4(load4(o, 4) + load4(w1, w + 4) * v, o, 4)
                }
            }
        }
        // ReLU + max 2×2 into a 16×16 grid (the border stays empty: that is conv2's
        // zero padding), with a bit per non-zero channel of each position.
        for y in 0..<14 {
            for x in 0..<14 {
                let a = act1 + ((2 * y + 1) * 30 + 2 * x + 1) * 8
                let pos = (y + 1) * 16 + x + 1
                let lo = pool(load4(a, 0), load4(a, 8), load4(a, 240), load4(a, 248))
                let hi = pool(load4(a, 4), load4(a, 12), load4(a, 244), load4(a, 252))
                store4(lo, value2, pos * 8); store4(hi, value2, pos * 8 + 4)
                mask2[pos] = nonZeroBits(lo) | nonZeroBits(hi) << 4
            }
        }

        // conv2 by gather: 14×14×16 (pre-activation); per tap, the non-zero channels
        // lowest first (the lowest set bit), the order a list of them would give.
        let b2v = (load4(b2, 0), load4(b2, 4), load4(b2, 8), load4(b2, 12))
        for y in 0..<14 {
            for x in 0..<14 {
                var a0 = b2v.0, a1 = b2v.1, a2 = b2v.2, a3 = b2v.3
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        let pos = (y + ky) * 16 + x + kx
                        let wt = w2 + (ky * 3 + kx) * 128
                        let values = value2 + pos * 8
                        var bits = mask2[pos]
                        while bits != 0 {
                            let c = bits.trailingZeroBitCount
                            bits &= bits &- 1
                            let u = SIMD4<Float>(repeating: values[c])
                            let w = wt + c * 16
                            a0 += load4(w, 0) * u; a1 += load4(w, 4) * u
                            a2 += load4(w, 8) * u; a3 += load4(w, 12) * u
                        }
                    }
                }
                let o = act2 + (y * 14 + x) * 16
                store4(a0, o, 0); store4(a1, o, 4); store4(a2, o, 8); store4(a3, o, 12)
            }
        }
        // ReLU + max 2×2 into the 7×7 grid, with a bit per non-zero channel.
        for y in 0..<7 {
            for x in 0..<7 {
                let a = act2 + (2 * y * 14 + 2 * x) * 16
                let pos = y * 7 + x
                var bits: UInt32 = 0
                for g in stride(from: 0, to: 16, by: 4) {
                    let v = pool(load4(a, g), load4(a, 16 + g), load4(a, 224 + g), load4(a, 240 + g))
                    store4(v, value3, pos * 16 + g)
                    bits |= nonZeroBits(v) << UInt32(g)
                }
                mask3[pos] = bits
            }
        }

        // conv3 (valid) by gather: 5×5×32, in H, W, C order = the 800 inputs of fc1
        for y in 0..<5 {
            for x in 0..<5 {
                var a0 = load4(b3, 0), a1 = load4(b3, 4), a2 = load4(b3, 8), a3 = load4(b3, 12)
                var a4 = load4(b3, 16), a5 = load4(b3, 20), a6 = load4(b3, 24), a7 = load4(b3, 28)
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        let pos = (y + ky) * 7 + x + kx
                        let wt = w3 + (ky * 3 + kx) * 512
                        let values = value3 + pos * 16
                        var bits = mask3[pos]
                        while bits != 0 {
                            let c = bits.trailingZeroBitCount
                            bits &= bits &- 1
                            let u = SIMD4<Float>(repeating: values[c])
                            let w = wt + c * 32
                            a0 += load4(w, 0) * u; a1 += load4(w, 4) * u
                            a2 += load4(w, 8) * u; a3 += load4(w, 12) * u
                            a4 += load4(w, 16) * u; a5 += load4(w, 20) * u
                            a6 += load4(w, 24) * u; a7 += load4(w, 28) * u
                        }
                    }
                }
                let o = act3 + (y * 5 + x) * 32
                store4(a0, o, 0); store4(a1, o, 4); store4(a2, o, 8); store4(a3, o, 12)
                store4(a4, o, 16); store4(a5, o, 20); store4(a6, o, 24); store4(a7, o, 28)
            }
        }
        // ReLU, listing the non-zero inputs of fc1 (offsets into its weight rows).
        n = 0
        for i in 0..<800 {
            let v = relu(act3[i])
            nzIndex[n] = Int32(truncatingIfNeeded: i * 64)
            nzValue[n] = v
            n &+= nonZero(v)
        }

        // fc1 + ReLU: 800 -> 64, in two halves of 32 outputs (8 accumulators)
        for half in 0..<2 {
            let h = half * 32
            var a0 = load4(c1, h), a1 = load4(c1, h + 4), a2 = load4(c1, h + 8), a3 = load4(c1, h + 12)
            var a4 = load4(c1, h + 16), a5 = load4(c1, h + 20), a6 = load4(c1, h + 24), a7 = load4(c1, h + 28)
            for k in 0..<n {
                let u = SIMD4<Float>(repeating: nzValue[k])
                let w = f1 + Int(nzIndex[k]) + h
                a0 += load4(w, 0) * u; a1 += load4(w, 4) * u
                a2 += load4(w, 8) * u; a3 += load4(w, 12) * u
                a4 += load4(w, 16) * u; a5 += load4(w, 20) * u
                a6 += load4(w, 24) * u; a7 += load4(w, 28) * u
            }
            let o = hidden + h
            store4(a0, o, 0); store4(a1, o, 4); store4(a2, o, 8); store4(a3, o, 12)
            store4(a4, o, 16); store4(a5, o, 20); store4(a6, o, 24); store4(a7, o, 28)
        }

        outputLayer(hidden, count: 64, into: logits)

        // The "not a digit" head: 800 -> H, ReLU, -> 1, over the same non-zero features as fc1
        // (nzIndex holds i * 64; the head's rows are H wide), four hidden units at a time.
        if headWidth > 0 {
            let hw = headWidth
            var sum: Float = hb2
            for g in stride(from: 0, to: hw, by: 4) {
                var a = load4(hb1, g)
                for k in 0..<n {
                    a += load4(h1, (Int(nzIndex[k]) &>> 6) &* hw &+ g) * SIMD4<Float>(repeating: nzValue[k])
                }
                sum += (a.replacing(with: 0, where: a .< 0) * load4(h2, g)).sum()
            }
            logits[10] = sum
        }
    }
}

@inline(__always)
func load4(_ p: UnsafeMutablePointer<Float>, _ offset: Int) -> SIMD4<Float> {
    UnsafeRawPointer(p + offset).load(as: SIMD4<Float>.self)
}

@inline(__always)
func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>, _ offset: Int) {
    UnsafeMutableRawPointer(p + offset).storeBytes(of: v, as: SIMD4<Float>.self)
}

@inline(__always)
func relu(_ x: Float) -> Float { x > 0 ? x : 0 }

/// ReLU of the 2×2 maximum, four channels at a time: lane by lane exactly
/// `relu(max(max(p, q), max(r, s)))` with Swift's `max` (`y >= x ? y : x`), so
/// the same floats, zeros and NaN included.
@inline(__always)
func pool(_ p: SIMD4<Float>, _ q: SIMD4<Float>, _ r: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
    let pq = p.replacing(with: q, where: q .>= p), rs = r.replacing(with: s, where: s .>= r)
    let m = pq.replacing(with: rs, where: rs .>= pq)
    return m.replacing(with: 0, where: .!(m .> 0))
}

/// Bit i set when lane i is not zero (a ReLU's output: +0 or positive, so
/// its bit pattern is 0 only for zero).
@inline(__always)
func nonZeroBits(_ v: SIMD4<Float>) -> UInt32 {
    let bits = unsafeBitCast(v, to: SIMD4<UInt32>.self)
    return SIMD4<UInt32>(repeating: 0).replacing(with: SIMD4(1, 2, 4, 8), where: bits .!= 0).wrappedSum()
}

/// 1 when `x != 0` (either zero counts as zero; NaN as non-zero), else 0, in
/// integer operations: the compiler turned `x != 0 ? 1 : 0` into two branches
/// (the float compare's NaN case), mispredicted on ink, and listing the
/// non-zero inputs cost a third of `forward`.
@inline(__always)
func nonZero(_ x: Float) -> Int {
    let magnitude = x.bitPattern &<< 1
    return Int(truncatingIfNeeded: (magnitude | (0 &- magnitude)) &>> 31)
}
