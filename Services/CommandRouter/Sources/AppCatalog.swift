/// The apps and categories Guardian knows by name, with the ways parents write them.
///
/// App ids are lowercase snake_case (`youtube`, `among_us`); ``normalizedID(for:)`` maps any known
/// spelling to its id and accepts other plausible names as they are, lowercased.
public struct AppCatalog: Sendable {
    public struct App: Sendable, Hashable {
        public var id: String
        public var displayName: String
        public var category: ParentCommand.Category
        /// Lowercase spellings, words separated by single spaces.
        public var synonyms: [String]
    }

    public let apps: [App]
    /// Lowercase phrases naming a category ("social media" → social, "video games" → games).
    public let categorySynonyms: [String: ParentCommand.Category]
    private let byName: [String: String]
    private let byID: [String: App]

    public init(apps: [App], categorySynonyms: [String: ParentCommand.Category]) {
        self.apps = apps
        self.categorySynonyms = categorySynonyms
        var byName: [String: String] = [:]
        var byID: [String: App] = [:]
        for app in apps {
            byID[app.id] = app
            byName[app.id] = app.id
            byName[Self.key(app.displayName)] = app.id
            for synonym in app.synonyms { byName[Self.key(synonym)] = app.id }
        }
        self.byName = byName
        self.byID = byID
    }

    public func app(id: String) -> App? { byID[id] }

    /// The id of a known app written any known way ("You Tube", "YT", "youtube"), else nil.
    public func knownID(for name: String) -> String? { byName[Self.key(name)] }

    /// A known app's id, or a plausible unknown name lowercased with `_` for spaces
    /// (1-40 characters of letters, digits and `_ . + & ' -`, at least one letter); nil otherwise.
    public func normalizedID(for name: String) -> String? {
        if let id = knownID(for: name) { return id }
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
        let id = words.joined(separator: "_")
        guard (1...40).contains(id.count), id.unicodeScalars.contains(where: { $0.properties.isAlphabetic }),
              id.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.+&'-".unicodeScalars.contains($0) })
        else { return nil }
        return id
    }

    /// The name to show a parent: the catalog's, else the id with spaces.
    public func displayName(for id: String) -> String {
        byID[id]?.displayName ?? id.replacingOccurrences(of: "_", with: " ")
    }

    private static func key(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).joined(separator: " ")
    }

    public static let standard = AppCatalog(
        apps: [
            App(id: "youtube", displayName: "YouTube", category: .video, synonyms: ["youtube", "you tube", "yt", "utube", "youtube app"]),
            App(id: "youtube_kids", displayName: "YouTube Kids", category: .video, synonyms: ["youtube kids", "you tube kids", "yt kids"]),
            App(id: "netflix", displayName: "Netflix", category: .video, synonyms: ["netflix"]),
            App(id: "disney_plus", displayName: "Disney+", category: .video, synonyms: ["disney+", "disney plus", "disneyplus", "disney"]),
            App(id: "hulu", displayName: "Hulu", category: .video, synonyms: ["hulu"]),
            App(id: "prime_video", displayName: "Prime Video", category: .video, synonyms: ["prime video", "amazon prime", "prime"]),
            App(id: "twitch", displayName: "Twitch", category: .video, synonyms: ["twitch"]),
            App(id: "hbo_max", displayName: "HBO Max", category: .video, synonyms: ["hbo max", "hbo"]),
            App(id: "apple_tv", displayName: "Apple TV", category: .video, synonyms: ["apple tv", "appletv"]),
            App(id: "tiktok", displayName: "TikTok", category: .social, synonyms: ["tiktok", "tik tok", "tic tok", "tiktoks"]),
            App(id: "instagram", displayName: "Instagram", category: .social, synonyms: ["instagram", "insta", "ig", "instagramm"]),
            App(id: "snapchat", displayName: "Snapchat", category: .social, synonyms: ["snapchat", "snap chat", "snap"]),
            App(id: "whatsapp", displayName: "WhatsApp", category: .social, synonyms: ["whatsapp", "whats app", "whatsap"]),
            App(id: "facebook", displayName: "Facebook", category: .social, synonyms: ["facebook", "fb"]),
            App(id: "messenger", displayName: "Messenger", category: .social, synonyms: ["messenger", "facebook messenger"]),
            App(id: "discord", displayName: "Discord", category: .social, synonyms: ["discord"]),
            App(id: "twitter", displayName: "X (Twitter)", category: .social, synonyms: ["twitter"]),
            App(id: "threads", displayName: "Threads", category: .social, synonyms: ["threads"]),
            App(id: "reddit", displayName: "Reddit", category: .social, synonyms: ["reddit"]),
            App(id: "pinterest", displayName: "Pinterest", category: .social, synonyms: ["pinterest"]),
            App(id: "telegram", displayName: "Telegram", category: .social, synonyms: ["telegram"]),
            App(id: "bereal", displayName: "BeReal", category: .social, synonyms: ["bereal", "be real"]),
            App(id: "roblox", displayName: "Roblox", category: .games, synonyms: ["roblox", "roblux"]),
            App(id: "minecraft", displayName: "Minecraft", category: .games, synonyms: ["minecraft", "mine craft"]),
            App(id: "fortnite", displayName: "Fortnite", category: .games, synonyms: ["fortnite", "fortnight"]),
            App(id: "among_us", displayName: "Among Us", category: .games, synonyms: ["among us", "amongus"]),
            App(id: "pokemon_go", displayName: "Pokémon GO", category: .games, synonyms: ["pokemon go", "pokémon go", "pokemon"]),
            App(id: "candy_crush", displayName: "Candy Crush", category: .games, synonyms: ["candy crush"]),
            App(id: "clash_royale", displayName: "Clash Royale", category: .games, synonyms: ["clash royale"]),
            App(id: "clash_of_clans", displayName: "Clash of Clans", category: .games, synonyms: ["clash of clans"]),
            App(id: "brawl_stars", displayName: "Brawl Stars", category: .games, synonyms: ["brawl stars"]),
            App(id: "call_of_duty", displayName: "Call of Duty", category: .games, synonyms: ["call of duty", "cod"]),
            App(id: "genshin_impact", displayName: "Genshin Impact", category: .games, synonyms: ["genshin impact", "genshin"]),
            App(id: "ea_sports_fc", displayName: "EA Sports FC", category: .games, synonyms: ["ea sports fc", "ea fc", "fifa"]),
            App(id: "rocket_league", displayName: "Rocket League", category: .games, synonyms: ["rocket league"]),
            App(id: "subway_surfers", displayName: "Subway Surfers", category: .games, synonyms: ["subway surfers"]),
            App(id: "geometry_dash", displayName: "Geometry Dash", category: .games, synonyms: ["geometry dash"]),
            App(id: "steam", displayName: "Steam", category: .games, synonyms: ["steam"]),
            App(id: "duolingo", displayName: "Duolingo", category: .education, synonyms: ["duolingo"]),
            App(id: "khan_academy", displayName: "Khan Academy", category: .education, synonyms: ["khan academy", "khan"]),
            App(id: "google_classroom", displayName: "Google Classroom", category: .education, synonyms: ["google classroom"]),
            App(id: "quizlet", displayName: "Quizlet", category: .education, synonyms: ["quizlet"]),
            App(id: "prodigy", displayName: "Prodigy", category: .education, synonyms: ["prodigy"]),
            App(id: "kindle", displayName: "Kindle", category: .education, synonyms: ["kindle"]),
            App(id: "spotify", displayName: "Spotify", category: .other, synonyms: ["spotify"]),
            App(id: "safari", displayName: "Safari", category: .other, synonyms: ["safari"]),
            App(id: "chrome", displayName: "Chrome", category: .other, synonyms: ["chrome", "google chrome"]),
        ],
        categorySynonyms: [
            "games": .games, "game": .games, "gaming": .games, "video games": .games, "video game": .games,
            "videogames": .games, "gaming apps": .games, "game apps": .games, "games apps": .games, "console": .games,
            "social": .social, "social media": .social, "social apps": .social, "social media apps": .social,
            "social networks": .social, "social networking": .social, "socials": .social, "social app": .social,
            "messaging apps": .social, "chat apps": .social,
            "video": .video, "videos": .video, "video apps": .video, "streaming": .video, "streaming apps": .video,
            "tv": .video, "tv apps": .video, "shows": .video, "movies": .video, "cartoons": .video,
            "education": .education, "educational": .education, "educational apps": .education,
            "education apps": .education, "learning apps": .education, "school apps": .education,
            "homework apps": .education, "study apps": .education,
            "other apps": .other,
        ])
}
