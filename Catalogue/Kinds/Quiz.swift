import BCKindsGenerator

extension Catalogue {
    static let quiz = Struct(
        "Quiz",
        doc: """
            t=29 `QuizStartQuestion` and t=30 `QuizShowCorrectAnswer`: a quiz question is shown, then its answer.

            One struct for both kinds: the app decodes them with the same model. From the 2022 app's model; no
            capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("quiz", "info", .object("Info"),
                "the quiz as a whole: its id and how many players and questions it has."),
            .required("question", "question", .object("Question"), "the question being asked or answered."),
        ],
        nested: [
            Struct(
                "Info",
                doc: """
                    The quiz as a whole (`quiz`).
                    """,
                [
                    .required("id", "id", .string, "the quiz's id."),
                    .required("remaining_user_num", "remainingUserCount", .int, "players still in the quiz."),
                    .required("total_question_num", "totalQuestionCount", .int, "how many questions the quiz has."),
                    .required("total_user_num", "totalUserCount", .int, "how many players started the quiz."),
                ]),
            Struct(
                "Question",
                doc: """
                    One question (`question`).
                    """,
                [
                    .required("answers", "answers", .strings,
                        "the choices, in the order shown. The app's choice type is unknown; modelled as the choices' texts (each a string or a number)."),
                    .required("body", "body", .string, "the question text."),
                    .required("correct_answer_nth", "correctAnswerNth", .int,
                        "the position of the correct choice in `answers`. The base is not known; the fixtures assume 1-based, with 0 on t=29 before the answer is revealed."),
                    .required("dismiss_popup_after", "dismissPopupAfter", .int,
                        "how long the popup stays up, presumably in seconds."),
                    .required("nth", "nth", .int, "which question of the quiz this is."),
                    .required("remaining_time", "remainingTime", .int, "time left to answer, presumably in seconds."),
                ]),
        ])

    static let quizQuestion = Kind(29, "quizQuestion", "quiz question shown", app: "QuizStartQuestion", .appModel, quiz)
    static let quizAnswer = Kind(30, "quizAnswer", "quiz answer shown", app: "QuizShowCorrectAnswer", .appModel, quiz)
}
