/// A view that shows text (UILabel): one line by default, or wrapped into `numberOfLines`, aligned by
/// `textAlignment` and centred vertically in its bounds. It measures with its backend's `textMeasurer`
/// (cairo's own on X11), so `sizeThatFits(_:)`, `intrinsicContentSize` and `sizeToFit()` are the size the
/// text is drawn at.
@MainActor
open class Label: View {
    /// The text shown.
    public var text: String = "" { didSet { if text != oldValue { textDidChange() } } }
    /// The colour of the text.
    public var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// The font; `Font.systemFont(ofSize: 17)` by default.
    public var font: Font = .systemFont(ofSize: 17) { didSet { if font != oldValue { textDidChange() } } }
    /// Where the lines sit horizontally; `.natural` (left) by default.
    public var textAlignment: TextAlignment = .natural { didSet { if textAlignment != oldValue { setNeedsDisplay() } } }
    /// The most lines shown (0: as many as the text needs); 1 by default.
    public var numberOfLines = 1 {
        didSet {
            if numberOfLines < 0 { numberOfLines = 0 }
            if numberOfLines != oldValue { textDidChange() }
        }
    }
    /// Where lines that do not fit break; `.byTruncatingTail` by default, as in UIKit.
    public var lineBreakMode: LineBreakMode = .byTruncatingTail { didSet { if lineBreakMode != oldValue { textDidChange() } } }

    /// The font size in points (a shortcut for `font`); non-finite or non-positive sizes are refused.
    public var fontSize: Double {
        get { font.pointSize }
        set {
            guard newValue.isFinite, newValue > 0 else {
                Application.logger.warning("refused font size \(newValue)")
                return
            }
            font = font.withSize(newValue)
        }
    }

    /// The measurer of the backend that shows the label; before it is in a window, `Application.shared`'s
    /// when attached, else the drawing engine's (a label is measured the same in or out of its window),
    /// else the estimate. Drawing measures with the drawing context's own.
    public var textMeasurer: any TextMeasuring {
        if let app = window?.application { return app.backend.textMeasurer }
        if Application.shared.hasBackend { return Application.shared.backend.textMeasurer }
        return TextMeasurers.drawingEngine ?? EstimatedTextMeasurer()
    }

    /// The lines for a width, as they are drawn.
    public func layout(width: Double) -> TextLayout {
        TextLayout(text, font: font, width: width, numberOfLines: numberOfLines, lineBreakMode: lineBreakMode,
                   measurer: textMeasurer)
    }

    /// The size the text needs within `size` (its width bounds the lines; each paragraph on one line when
    /// it is unbounded).
    open func sizeThatFits(_ size: Size) -> Size {
        layout(width: size.width > 0 ? size.width : .infinity).size
    }

    /// The size the text needs on its own lines: one per paragraph, up to `numberOfLines`.
    public var intrinsicContentSize: Size { sizeThatFits(Size(width: Double.infinity, height: .infinity)) }

    /// Resizes the label to the size its text needs, keeping its origin (lines wrapped within the current
    /// width when more than one line is allowed).
    public func sizeToFit() {
        let limit = numberOfLines == 1 || bounds.width <= 0 ? Double.infinity : bounds.width
        frame = Rect(origin: frame.origin, size: sizeThatFits(Size(width: limit, height: .infinity)))
    }

    /// Draws the lines centred vertically in the bounds, each placed by `textAlignment`.
    open override func draw(_ rect: Rect, in context: any GraphicsContext) {
        guard !text.isEmpty else { return }
        // The context's: what draws the text measures it, without climbing to the application.
        let measurer = context.textMeasurer ?? textMeasurer
        // One line that fits, the usual label: drawn as the layout would, without making its arrays.
        if let width = TextLayout.fittingLineWidth(text, font: font, width: bounds.width, measurer: measurer) {
            let y = bounds.minY + ((bounds.height - measurer.lineMetrics(font: font).height) / 2).rounded()
            return drawLine(text, width: width, y: y, in: context)
        }
        drawLines(measurer: measurer, in: context)
    }

    /// Draws the text laid out in lines (it does not fit on one), centred vertically. Apart from `draw`,
    /// whose usual run (one line) then stays short.
    @inline(never)
    private func drawLines(measurer: any TextMeasuring, in context: any GraphicsContext) {
        let l = TextLayout(text, font: font, width: bounds.width, numberOfLines: numberOfLines,
                           lineBreakMode: lineBreakMode, measurer: measurer, fittingLineTried: true)
        var y = bounds.minY + ((bounds.height - Double(l.lines.count) * l.lineHeight) / 2).rounded()
        for (line, width) in zip(l.lines, l.widths) {
            drawLine(line, width: width, y: y, in: context)
            y += l.lineHeight
        }
    }

    /// Draws one line at `y`, placed by `textAlignment`.
    private func drawLine(_ line: String, width: Double, y: Double, in context: any GraphicsContext) {
        let x: Double
        switch textAlignment {
        case .left, .natural, .justified: x = bounds.minX
        case .center: x = bounds.minX + ((bounds.width - width) / 2).rounded()
        case .right: x = bounds.maxX - width.rounded(.up)
        }
        context.drawText(line, at: Point(x: x, y: y), font: font, color: textColor)
    }

    private func textDidChange() {
        setNeedsDisplay()
        superview?.setNeedsLayout()
    }
}
