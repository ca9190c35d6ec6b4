/// What `Application.shared` has until a real backend is attached: no display at all. It reports no
/// monitor, so the application stands one screen in (never announced) and `Screen.main` exists; it shows
/// nothing, and says so once in the log when windows would have been shown. Not a test double: that is `MultiheadInMemory`'s
/// `InMemoryBackend`.
@MainActor
final class DetachedBackend: DisplayBackend {
    private var warned = false

    /// The stand-in's size: a common desktop's, so that layout written for a screen sees one.
    static let standInSize = Size(width: 1920, height: 1080)

    /// No monitor: the application stands its one screen in (`ScreenDescription.nonEmpty`, of `standInSize`).
    func start(input: BackendInput) throws -> [ScreenDescription] { [] }
    func readScreens() throws -> [ScreenDescription] { [] }
    func processPendingEvents() {}
    func stop() {}

    func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws {
        throw ScreenError.refused(screen: name, reason: Self.message)
    }

    func setBrightness(_ value: Double, forScreenNamed name: String) throws {
        throw ScreenError.refused(screen: name, reason: Self.message)
    }

    func present(_ scene: Scene) {
        guard !scene.windows.isEmpty, !warned else { return }
        warned = true
        Application.logger.warning("\(Self.message): windows are not shown")
    }

    func focus(_ window: Window?) {}

    static let message = "the application has no display backend; attach one, e.g. Application.shared.attach(X11Backend())"
}
