/// A view that shows one line of text (UILabel).
@MainActor
open class Label: View {
    /// The text shown.
    public var text: String = "" { didSet { if text != oldValue { setNeedsDisplay() } } }
    /// The colour of the text.
    public var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// The font size in points; non-finite or non-positive sizes are refused.
    public var fontSize: Double = 17 {
        didSet {
            guard fontSize.isFinite, fontSize > 0 else {
                Application.logger.warning("refused font size \(fontSize)")
                fontSize = oldValue
                return
            }
            if fontSize != oldValue { setNeedsDisplay() }
        }
    }

    /// The size the text needs: an estimate from the font size (0.6 em per character, 1.25 em high) that
    /// the drawing backend matches within a few pixels.
    public var intrinsicContentSize: Size {
        Size(width: (Double(text.count) * fontSize * 0.6).rounded(.up), height: (fontSize * 1.25).rounded(.up))
    }

    /// Draws the text at the top-left corner of the bounds.
    open override func draw(_ rect: Rect, in context: any GraphicsContext) {
        guard !text.isEmpty else { return }
        context.drawText(text, at: bounds.origin, fontSize: fontSize, color: textColor)
    }

    /// Resizes the label to its `intrinsicContentSize`, keeping its origin.
    public func sizeToFit() {
        frame = Rect(origin: frame.origin, size: intrinsicContentSize)
    }
}
