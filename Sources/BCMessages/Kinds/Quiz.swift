extension BCResponse {
    /// t=29 `QuizStartQuestion` and t=30 `QuizShowCorrectAnswer`: a quiz question is shown, then its answer.
    ///
    /// One struct for both kinds: the app decodes them with the same model. From the 2022 app's model; no
    /// capture seen, so any scalar may come as a number or a string.
    public struct Quiz: BCPayload {
        /// `quiz`: the quiz as a whole: its id and how many players and questions it has.
        public var info: Info
        /// `question`: the question being asked or answered.
        public var question: Question

        public init(info: Info, question: Question) {
            self.info = info
            self.question = question
        }

        enum CodingKeys: String, CodingKey {
            case info = "quiz"
            case question
        }

        /// The quiz as a whole (`quiz`).
        public struct Info: Hashable, Sendable, Codable {
            /// `id`: the quiz's id.
            @ForcibleString public var id: String
            /// `remaining_user_num`: players still in the quiz.
            @ForcibleInt public var remainingUserCount: Int
            /// `total_question_num`: how many questions the quiz has.
            @ForcibleInt public var totalQuestionCount: Int
            /// `total_user_num`: how many players started the quiz.
            @ForcibleInt public var totalUserCount: Int

            public init(id: String, remainingUserCount: Int, totalQuestionCount: Int, totalUserCount: Int) {
                self.id = id
                self.remainingUserCount = remainingUserCount
                self.totalQuestionCount = totalQuestionCount
                self.totalUserCount = totalUserCount
            }

            enum CodingKeys: String, CodingKey {
                case id
                case remainingUserCount = "remaining_user_num"
                case totalQuestionCount = "total_question_num"
                case totalUserCount = "total_user_num"
            }
        }

        /// One question (`question`).
        public struct Question: Hashable, Sendable, Codable {
            /// `answers`: the choices, in the order shown. The app's choice type is unknown; modelled as the
            /// choices' texts (each a string or a number).
            @ForcibleArray public var answers: [String]
            /// `body`: the question text.
            @ForcibleString public var body: String
            /// `correct_answer_nth`: the position of the correct choice in `answers`. The base is not known;
            /// the fixtures assume 1-based, with 0 on t=29 before the answer is revealed.
            @ForcibleInt public var correctAnswerNth: Int
            /// `dismiss_popup_after`: how long the popup stays up, presumably in seconds.
            @ForcibleInt public var dismissPopupAfter: Int
            /// `nth`: which question of the quiz this is.
            @ForcibleInt public var nth: Int
            /// `remaining_time`: time left to answer, presumably in seconds.
            @ForcibleInt public var remainingTime: Int

            public init(answers: [String], body: String, correctAnswerNth: Int, dismissPopupAfter: Int, nth: Int,
                        remainingTime: Int) {
                self.answers = answers
                self.body = body
                self.correctAnswerNth = correctAnswerNth
                self.dismissPopupAfter = dismissPopupAfter
                self.nth = nth
                self.remainingTime = remainingTime
            }

            enum CodingKeys: String, CodingKey {
                case answers
                case body
                case correctAnswerNth = "correct_answer_nth"
                case dismissPopupAfter = "dismiss_popup_after"
                case nth
                case remainingTime = "remaining_time"
            }
        }
    }
}
