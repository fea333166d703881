extension DigitNetwork {
    /// `forward` for networks of other widths than mindpad-cnn-v1's (the
    /// number reader's wider network): the same steps and the same sums in
    /// the same order (the bias, then the 3×3 taps row by row, then the
    /// input channels lowest first; zero inputs skipped, as `forward` skips
    /// them), as loops over the widths: conv1 four channels at a time, every
    /// other layer 16 output channels at a time (four SIMD4 accumulators).
    /// `ReferenceTests` checks it against the dense loops like `forward`.
    func forwardAnyWidth(_ ws: Recognizer.Workspace) {
        let n1 = widths.conv1, n2 = widths.conv2, n3 = widths.conv3, nh = widths.hidden
        let image = ws.image, act1 = ws.act1, act2 = ws.act2, act3 = ws.act3
        let hidden = ws.hidden, logits = ws.logits
        let nzIndex = ws.nzIndex, nzValue = ws.nzValue
        let value2 = ws.value2, value3 = ws.value3
        let mask2 = ws.wideMask2, mask3 = ws.wideMask3

        // conv1 by scatter from the non-zero pixels into a 30×30×n1 buffer: output
        // pixel (y, x) lives at (y + 1, x + 1), the border absorbs the spill.
        for i in 0..<900 {
            for g in stride(from: 0, to: n1, by: 4) { store4(load4(b1, g), act1, i * n1 + g) }
        }
        var n = 0
        for i in 0..<784 {
            nzIndex[n] = Int32(truncatingIfNeeded: i)
            nzValue[n] = image[i]
            n &+= nonZero(image[i])
        }
        for k in 0..<n {
            let i = Int(nzIndex[k])
            let r = i / 28, c = i - (i / 28) * 28
            let v = SIMD4<Float>(repeating: nzValue[k])
            let base = act1 + ((r + 2) * 30 + c + 2) * n1
            for ky in 0..<3 {
                for kx in 0..<3 {
                    let o = base - (ky * 30 + kx) * n1
                    let w = (ky * 3 + kx) * n1
                    for g in stride(from: 0, to: n1, by: 4) { store4(load4(o, g) + load4(w1, w + g) * v, o, g) }
                }
            }
        }
        // ReLU + max 2×2 into a 16×16 grid (its border is conv2's zero padding).
        Self.poolMap(act1, channels: n1, row: 30, border: 1, side: 14, into: value2, masks: mask2, outputRow: 16, outputBorder: 1)
        // conv2 by gather: 14×14×n2 (pre-activation).
        for y in 0..<14 {
            for x in 0..<14 {
                Self.gather(out: act2 + (y * 14 + x) * n2, outputs: n2, bias: b2, weights: w2, inputs: n1,
                            values: value2, masks: mask2, row: 16, y: y, x: x)
            }
        }
        // ReLU + max 2×2 into the 7×7 grid.
        Self.poolMap(act2, channels: n2, row: 14, border: 0, side: 7, into: value3, masks: mask3, outputRow: 7, outputBorder: 0)
        // conv3 (valid) by gather: 5×5×n3, in H, W, C order = fc1's inputs.
        for y in 0..<5 {
            for x in 0..<5 {
                Self.gather(out: act3 + (y * 5 + x) * n3, outputs: n3, bias: b3, weights: w3, inputs: n2,
                            values: value3, masks: mask3, row: 7, y: y, x: x)
            }
        }
        // ReLU, listing the non-zero inputs of fc1 (offsets into its weight rows).
        n = 0
        for i in 0..<widths.features {
            let v = relu(act3[i])
            nzIndex[n] = Int32(truncatingIfNeeded: i * nh)
            nzValue[n] = v
            n &+= nonZero(v)
        }
        // fc1 + ReLU, 16 outputs at a time.
        for h in stride(from: 0, to: nh, by: 16) {
            var a0 = load4(c1, h), a1 = load4(c1, h + 4), a2 = load4(c1, h + 8), a3 = load4(c1, h + 12)
            for k in 0..<n {
                let u = SIMD4<Float>(repeating: nzValue[k])
                let w = f1 + Int(nzIndex[k]) + h
                a0 += load4(w, 0) * u; a1 += load4(w, 4) * u
                a2 += load4(w, 8) * u; a3 += load4(w, 12) * u
            }
            store4(a0, hidden, h); store4(a1, hidden, h + 4); store4(a2, hidden, h + 8); store4(a3, hidden, h + 12)
        }
        outputLayer(hidden, count: nh, into: logits)
    }

    /// ReLU + max 2×2 of a map `row` positions wide (its first `border` rows
    /// and columns skipped) into a side×side one `outputRow` wide (output
    /// (y, x) at (y + outputBorder, x + outputBorder)), with a bit per
    /// non-zero channel of each output position.
    @inline(__always)
    private static func poolMap(
        _ input: UnsafeMutablePointer<Float>, channels n: Int, row: Int, border: Int, side: Int,
        into values: UnsafeMutablePointer<Float>, masks: UnsafeMutablePointer<UInt64>, outputRow: Int, outputBorder: Int
    ) {
        for y in 0..<side {
            for x in 0..<side {
                let a = input + ((2 * y + border) * row + 2 * x + border) * n
                let pos = (y + outputBorder) * outputRow + x + outputBorder
                var bits: UInt64 = 0
                for g in stride(from: 0, to: n, by: 4) {
                    let v = pool(load4(a, g), load4(a, n + g), load4(a, row * n + g), load4(a, (row + 1) * n + g))
                    store4(v, values, pos * n + g)
                    bits |= UInt64(nonZeroBits(v)) << UInt64(g)
                }
                masks[pos] = bits
            }
        }
    }

    /// One output position of a 3×3 convolution by gather, 16 output
    /// channels at a time: the bias, then per tap (row by row) the non-zero
    /// input channels of that position, lowest first. `values` and `masks`
    /// are the pooled input map, `row` positions wide, each position's
    /// channels contiguous; the output (y, x) reads positions (y…y+2, x…x+2).
    @inline(__always)
    private static func gather(
        out: UnsafeMutablePointer<Float>, outputs: Int, bias: UnsafeMutablePointer<Float>,
        weights: UnsafeMutablePointer<Float>, inputs: Int,
        values: UnsafeMutablePointer<Float>, masks: UnsafeMutablePointer<UInt64>, row: Int, y: Int, x: Int
    ) {
        for block in stride(from: 0, to: outputs, by: 16) {
            var a0 = load4(bias, block), a1 = load4(bias, block + 4)
            var a2 = load4(bias, block + 8), a3 = load4(bias, block + 12)
            for ky in 0..<3 {
                for kx in 0..<3 {
                    let pos = (y + ky) * row + x + kx
                    let wt = weights + (ky * 3 + kx) * inputs * outputs + block
                    let input = values + pos * inputs
                    var bits = masks[pos]
                    while bits != 0 {
                        let c = bits.trailingZeroBitCount
                        bits &= bits &- 1
                        let u = SIMD4<Float>(repeating: input[c])
                        let w = wt + c * outputs
                        a0 += load4(w, 0) * u; a1 += load4(w, 4) * u
                        a2 += load4(w, 8) * u; a3 += load4(w, 12) * u
                    }
                }
            }
            store4(a0, out, block); store4(a1, out, block + 4); store4(a2, out, block + 8); store4(a3, out, block + 12)
        }
    }
}
