import Mustache

/// The console's HTML: the `.mustache` files of `Templates/`, compiled into the executable and
/// parsed once when the console starts, each under the `ConsoleHTML` content type (set here, so no
/// template can forget it): every `{{value}}` is escaped; `{{{…}}}` takes only HTML the console made.
struct ConsoleTemplates: Sendable {
    /// Every template, by the name that a page or a partial (`{{>name}}`) calls it.
    static let sources: [String: [UInt8]] = [
        "layout": PackageResources.layout_mustache, "csrf": PackageResources.csrf_mustache,
        "time": PackageResources.time_mustache, "choices": PackageResources.choices_mustache,
        "signin": PackageResources.signin_mustache, "problem": PackageResources.problem_mustache,
        "family": PackageResources.family_mustache, "children": PackageResources.children_mustache,
        "commands": PackageResources.commands_mustache, "notifications": PackageResources.notifications_mustache,
        "map": PackageResources.map_mustache, "day": PackageResources.day_mustache, "day-section": PackageResources.day_section_mustache,
        "privacy": PackageResources.privacy_mustache, "erase": PackageResources.erase_mustache, "receipts": PackageResources.receipts_mustache,
    ]

    /// A template that does not parse: the console does not start.
    struct Unparsable: Error, CustomStringConvertible {
        let name: String
        let error: any Error
        var description: String { "the console template \(name).mustache does not parse: \(error)" }
    }

    /// The pages of the signed-in console, for the navigation.
    enum Place: String {
        case family, day, privacy
    }

    private let library: MustacheLibrary

    init(sources: [String: [UInt8]] = Self.sources) throws(Unparsable) {
        MustacheContentTypes.register(ConsoleHTML(), named: ConsoleHTML.name)
        var library = MustacheLibrary()
        for (name, bytes) in sources {
            do {
                try library.register("{{% CONTENT_TYPE: \(ConsoleHTML.name) }}" + String(decoding: bytes, as: UTF8.self), named: name)
            } catch {
                throw Unparsable(name: name, error: error)
            }
        }
        self.library = library
    }

    func render(_ name: String, _ model: Any) -> String {
        guard let html = library.render(model, withTemplate: name) else { preconditionFailure("no console template \(name)") }
        return html
    }

    /// A whole page around the template `name`. A page with `live` (the stream's URL) opens the
    /// server-sent event stream.
    func page(_ name: String, _ model: Any, title: String, session: ParentSession?, place: Place? = nil, live: String? = nil) -> String {
        let current = place.map { [$0.rawValue: true] } ?? [:]
        return render("layout", Layout(title: title, parent: session?.parent, csrf: session?.csrfToken, live: live, current: current, body: render(name, model)))
    }

    private struct Layout { let title: String, parent: String?, csrf: String?, live: String?, current: [String: Bool], body: String }
}
