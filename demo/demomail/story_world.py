"""INBOX conversations with correspondents abroad.

Covers: an emoji subject (UTF-8 B) with inline photos; a Spanish UTF-8 Q
subject; a Japanese message in ISO-2022-JP and replies in UTF-8; a Russian
base64 body with an RFC 2231 Cyrillic file name; Danish and Portuguese
subjects; a legal PDF with a non-ASCII file name."""
from . import blobs, dates, mime
from .cast import YOU, person
from .threads import Conversation


def cafe_photos(book):
    zoe = person("zoe")
    conv = Conversation(book, "Photos from the café ☕", "INBOX", dates.utc(2026, 9, 6, 17, 40), style="b")
    terrace = blobs.gradient(120, 80, (255, 236, 200), (150, 100, 60), stripe=(50, 60))
    counter = blobs.gradient(120, 80, (230, 230, 220), (90, 70, 60))
    conv.post(zoe, [
        "Here are the two photos from Saturday — the terrace and the famous counter. The light "
        "was lovely, so I did not touch them.",
        "If you want them for the team page, I can send the full-size files."],
        html=True, images=[("terrasse.1@atelier-laurent.example", "terrasse.png", terrace),
                           ("comptoir.2@atelier-laurent.example", "comptoir.png", counter)])
    conv.post(YOU, ["These are beautiful, thank you! Yes please, the full-size terrace one would be "
                    "perfect for the team page."], after=15.0)
    conv.post(zoe, ["Sent via the download link. Bonne semaine !"], after=4.0, html=True, unread=True)


def reunion(book):
    jose = person("jose")
    conv = Conversation(book, "Reunión del equipo — próximos pasos", "INBOX", dates.utc(2026, 9, 21, 8, 15),
                        style="q")
    conv.post(jose, [
        "te resumo la reunión de ayer en español y en inglés, para que Tom también lo tenga.",
        "1. Acme Iberia renueva el contrato en enero; quieren un precio fijo por dos años.\n"
        "2. El presupuesto (budget) de formación para su equipo está aprobado.\n"
        "3. Próxima reunión: 5 de octubre en Madrid.",
        "In English: Acme Iberia renews in January and wants a two-year fixed price; the training "
        "budget for their team is approved; next meeting on 5 October in Madrid."],
        cc=[person("tom")], greet=False)
    conv.post(YOU, ["Gracias, José! A two-year fixed price is fine for us if the renewal is signed "
                    "before December. See you in Madrid."], after=6.0)
    conv.post(jose, ["Perfecto. Se lo comento mañana. / I will tell them tomorrow."], after=3.0, greet=False)


def meeting_tokyo(book):
    """The first message is ISO-2022-JP, as Japanese mail often still is."""
    taro = person("taro")
    conv = Conversation(book, "来週の打ち合わせについて", "INBOX", dates.utc(2026, 10, 27, 1, 30), style="jis")
    letter = [
        "アレックス様",
        "いつもお世話になっております。サクラシステムズの山田です。",
        "来週の打ち合わせの件ですが、11月4日（水）の17時（日本時間）はいかがでしょうか。"
        "議題は新しい同期機能のデモと、来年度の契約についてです。",
        "ご都合をお知らせいただけますと幸いです。\nよろしくお願いいたします。",
        "(English: could we meet on Wednesday 4 November at 17:00 Tokyo time, 08:00 in London? "
        "Agenda: the new sync feature demo and next year's contract.)",
        "--\n山田 太郎 (Taro Yamada)\nサクラシステムズ株式会社"]
    conv.post(taro, letter, greet=False, sign=False, encoding="7bit", charset="ISO-2022-JP")
    conv.post(YOU, ["Wednesday 4 November at 08:00 London time works well. I will send an invitation "
                    "with the video link. Looking forward to it!"], after=7.0, subject_style="b")
    conv.post(taro, ["ありがとうございます。当日はよろしくお願いいたします。",
                     "Thank you, see you on Wednesday."], after=9.0, greet=False, subject_style="b")


def report_october(book):
    olga = person("olga")
    conv = Conversation(book, "Отчёт за октябрь / October report", "INBOX", dates.utc(2026, 11, 3, 7, 5))
    rows = [("Показатель", "Сентябрь", "Октябрь"), ("Выручка, £", 182400, 195200),
            ("Хостинг, £", 14900, 12100), ("Активные пользователи", 17010, 18240)]
    conv.post(olga, [
        "Добрый день, Алекс!",
        "Высылаю отчёт за октябрь. Основные цифры:\n\n"
        "  — выручка выросла на 7% по сравнению с сентябрём;\n"
        "  — расходы на хостинг снизились после перехода на зарезервированные серверы;\n"
        "  — активных пользователей: 18 240.",
        "Подробности во вложении. Если нужно, подготовлю версию на английском.",
        "English summary: revenue is up 7% on September, hosting costs are down after the move to "
        "reserved instances, and we are within the Q4 budget."],
        greet=False, attachments=[mime.attachment(blobs.csv(rows), "text/csv", "отчёт-октябрь.csv")])
    conv.post(YOU, ["Thank you Olga, very clear. No need for an English version, the summary is "
                    "enough."], after=5.5)
    conv.post(olga, ["Хорошо, спасибо! / Great, thanks!"], after=1.0, greet=False)
    return conv


def export_format(book):
    soren = person("soren")
    conv = Conversation(book, "Ærø Data: export format for the archive", "INBOX",
                        dates.utc(2026, 10, 6, 9, 0), style="b")
    conv.post(soren, [
        "We are preparing the archive export for you. Would you prefer one JSON file per year, or "
        "a single CSV with a year column? The CSV would be about 2 GB.",
        "Either way we include a checksum file so you can verify the transfer."])
    conv.post(YOU, ["One JSON file per year, please; it is easier to load in parts. Thanks for the "
                    "checksums."], after=3.0)
    conv.post(soren, ["Good, JSON it is. The first years will be ready on Friday."], after=2.0)
    conv.post(soren, ["The files for 2019-2023 are on the transfer server now. 2024 and 2025 follow "
                      "on Monday."], after=75.0, reply_to=-1, unread=True)


def proposal(book):
    mateus = person("mateus")
    conv = Conversation(book, "Proposta: integração com o Atlas", "INBOX", dates.utc(2026, 9, 28, 13, 0),
                        style="q")
    conv.post(mateus, [
        "Following our call, here is our proposal for the integration with Atlas. In short: we "
        "build the connector in six weeks, you review the API changes, and we share the "
        "maintenance for the first year.",
        "Desculpe o português no assunto — our sales team insists on it."], html=True)
    conv.post(YOU, ["Thanks Mateus. The split of maintenance makes sense. Could you include an "
                    "estimate of the hours for the first year, so we can plan for it?"], after=20.0)
    conv.post(mateus, ["Of course: about 120 hours, mostly in the first quarter after release."],
              after=5.0, html=True)


def nda(book):
    fatima, soren = person("fatima"), person("soren")
    conv = Conversation(book, "NDA for Ærø Data ApS", "INBOX", dates.utc(2026, 9, 16, 10, 0), style="b")
    contract = blobs.pdf("Mutual NDA - Aero Data ApS", ["Mutual non-disclosure agreement",
                                                         "between Northwind Ltd and Aero Data ApS",
                                                         "Term: 3 years", "Governing law: England and Wales"])
    conv.post(fatima, [
        "Attached is the mutual NDA for Ærø Data. It is our standard template with one change: the "
        "term is three years instead of two, at their request.",
        "Could you forward it to Søren for signature? I do not have a contact there yet."],
        attachments=[mime.attachment(contract, "application/pdf", "NDA – Ærø Data ApS.pdf")])
    conv.post(YOU, ["Done, and Søren is copied here so you have his address."], after=1.5, cc=[soren])
    conv.post(soren, ["Signed copy attached. Tak!"], after=26.0,
              attachments=[mime.attachment(contract, "application/pdf", "NDA – Ærø Data ApS (signed).pdf")])


def build(book):
    """Adds the stories; returns the October report thread (a draft answers it)."""
    cafe_photos(book)
    reunion(book)
    meeting_tokyo(book)
    export_format(book)
    proposal(book)
    nda(book)
    return report_october(book)
