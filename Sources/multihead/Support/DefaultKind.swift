import MultiheadTesting

/// The kind of server `multihead server`, `multihead run` and the pytest plugin start when no flag names
/// one, and the one `multihead doctor` calls the default: Xorg with Multihead's driver wherever it can
/// start (Xorg, and a driver for it: a prebuilt one whose video ABI loads into that Xorg, one built before,
/// or what building one at first use takes: a C compiler, pkg-config and xserver-xorg-dev of the server's
/// release), since every toolkit sees its hotplug; else Xvfb, on which GTK, Qt 5, SDL, GLFW and Chromium
/// see none. The one rule: `decide(xorg:)`, from what `DoctorReport.xorgStatus` says of the xorg kind.
enum DefaultKind {
    /// The default kind, and why it is not Xorg with Multihead's driver when it is Xvfb.
    struct Decision: Sendable, Equatable {
        var kind: VirtualServer.Kind
        /// Why Xorg with Multihead's driver cannot start here ("needs Xorg (xserver-xorg-core)"); nil when it can.
        var whyNotXorg: String?
        /// The Debian packages that would let it start.
        var missing: [String]

        /// The line on stderr when the default is Xvfb (without the tool's name), nil when it is Xorg.
        var notice: String? {
            guard let whyNotXorg else { return nil }
            let install = missing.isEmpty ? "" : ": apt-get install " + missing.joined(separator: " ")
            return "starting Xvfb, not Xorg with Multihead's driver, which \(whyNotXorg)\(install); "
                + "GTK, Qt 5, SDL, GLFW and Chromium see no hotplug on Xvfb (--xvfb asks for Xvfb without this line)"
        }
    }

    /// The rule: Xorg with Multihead's driver when that kind can start, else Xvfb.
    static func decide(xorg: DoctorReport.KindStatus) -> Decision {
        xorg.canStart ? Decision(kind: .xorg, whyNotXorg: nil, missing: [])
            : Decision(kind: .xvfb, whyNotXorg: xorg.reason, missing: xorg.missing)
    }

    /// The decision on this machine, read once per process from files (and `pkg-config`, and `Xorg -version`
    /// only when no prebuilt or built driver is there): nothing starts, nothing compiles.
    static let here: Decision = {
        let xorgPath = XorgInstallation.serverBinary()
        let driver = DoctorReport.driverSource(hasServer: xorgPath != nil) { (try? XorgInstallation.serverVersion()) ?? nil }
        return decide(xorg: DoctorReport.xorgStatus(xkbcomp: DoctorReport.xkbcompPiece(),
                                                    xorg: DoctorReport.xorgPiece(path: xorgPath), driver: driver))
    }()
}
