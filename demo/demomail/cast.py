"""The people of the demo mailbox.

About twenty correspondents of the demo user, with the quirks real mail
carries: non-ASCII names (encoded as RFC 2047 B or Q words), a display name
that needs quoting ("Chen, Wei"), localised reply prefixes (AW:, SV:),
different quoting habits, time zones and Message-ID styles.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Person:
    key: str
    name: str
    address: str
    zone: str
    signature: str = ""          # lines after the "-- " separator; empty: signs with the first name
    first: str = ""              # how others greet them; defaults to the first word of the name
    sign: str = ""               # how they sign; defaults to `first`
    reply_prefix: str = "Re:"    # what their client puts before a replied-to subject
    quote: str = "> "            # how their client prefixes quoted lines
    name_style: str = "q"        # RFC 2047 style of the display name: q, b or latin1
    id_style: str = "uuid"       # how their client spells Message-IDs
    top_posts: bool = True       # replies above the quote (else trims and answers below)

    @property
    def greeting_name(self):
        return self.first or self.name.split(" ")[0]

    @property
    def sign_name(self):
        return self.sign or self.greeting_name

    @property
    def domain(self):
        return self.address.split("@", 1)[1]


YOU = Person("you", "Alex Morgan", "you@demo.example", "Europe/London",
             "Alex Morgan\nProgramme Manager, Northwind\n+44 20 7946 0123", id_style="thunderbird")

PEOPLE = [
    YOU,
    Person("alice", "Alice Smith", "alice.smith@northwind.example", "Europe/London",
           "Alice Smith | Head of Operations\nNorthwind Ltd, 12 Wharf Road, London N1 7GR", id_style="outlook"),
    Person("tom", "Tom Hughes", "tom.hughes@northwind.example", "Europe/London",
           "Tom Hughes\nFinancial Controller, Northwind\nt: +44 20 7946 0871", id_style="outlook"),
    Person("zoe", "Zoë Laurent", "zoe@atelier-laurent.example", "Europe/Paris",
           "Zoë Laurent — Atelier Laurent\ndesign & illustration\nhttps://atelier-laurent.example",
           reply_prefix="RE:", name_style="b", id_style="apple"),
    Person("jose", "José Fernández", "jose.fernandez@acme-iberia.example", "Europe/Madrid",
           "José Fernández\nDirector Comercial · ACME Iberia\nMadrid", name_style="latin1", id_style="gmail"),
    Person("soren", "Søren Ærøskøbing", "soren@aeroe-data.example", "Europe/Copenhagen",
           "Søren Ærøskøbing\nÆrø Data ApS", reply_prefix="SV:", name_style="b", top_posts=False),
    Person("taro", "山田太郎", "yamada.taro@example.jp", "Asia/Tokyo",
           "山田 太郎 (Taro Yamada)\nSakura Systems K.K.", first="Yamada-san", sign="Taro", name_style="b"),
    Person("olga", "Ольга Петрова", "olga.petrova@example.ru", "Europe/Moscow",
           "Ольга Петрова / Olga Petrova\nАналитик, Северный Ветер", first="Olga", name_style="b",
           id_style="gmail"),
    Person("hannah", "Hannah Müller", "h.mueller@kontor.example", "Europe/Berlin",
           "Hannah Müller\nKontor Beratung GmbH\nFriedrichstraße 88, 10117 Berlin",
           reply_prefix="AW:", name_style="latin1", id_style="outlook"),
    Person("priya", "Priya Raman", "priya.raman@northwind.example", "Asia/Kolkata",
           "Priya Raman\nEngineering Lead, Northwind", id_style="gmail"),
    Person("liam", "Liam O'Connor", "liam.oconnor@northwind.example", "Europe/Dublin",
           "Liam O'Connor\nMarketing, Northwind", top_posts=False),
    Person("wei", "Chen, Wei", "wei.chen@northwind.example", "America/Los_Angeles",
           "Wei Chen\nProduct, Northwind", first="Wei", id_style="gmail"),
    Person("fatima", "Fatima Al-Sayed", "fatima.alsayed@northwind.example", "Europe/London",
           "Fatima Al-Sayed\nLegal Counsel, Northwind\nThis email may contain privileged information.",
           id_style="outlook"),
    Person("noah", "Noah Becker", "noah@becker-consulting.example", "America/New_York",
           "Noah Becker\nBecker Consulting LLC", quote=">", top_posts=False, id_style="mutt"),
    Person("grace", "Grace Kim", "grace.kim@northwind.example", "Europe/London",
           "Grace Kim\nPeople & Culture", id_style="outlook"),
    Person("mateus", "Mateus Silva", "mateus@sabia.example", "America/Sao_Paulo",
           "Mateus Silva — Sabiá Software", name_style="q", id_style="gmail"),
    Person("ingrid", "Ingrid Johansson", "ingrid.johansson@northwind.example", "Europe/Stockholm",
           "Ingrid Johansson\nQA, Northwind", reply_prefix="SV:", top_posts=False),
    Person("francois", "François Dubois", "francois.dubois@printworks.example", "Europe/Paris",
           "François Dubois\nImprimerie Dubois & Fils\n+33 1 23 45 67 89", name_style="latin1",
           id_style="apple"),
    Person("emma", "Emma Wilson", "emma.w@mailbox.example", "Europe/London", "", id_style="apple"),
    Person("facilities", "Northwind Facilities", "facilities@northwind.example", "Europe/London",
           "Jenny Price\nFacilities team, Northwind Ltd", first="Facilities team", sign="Jenny",
           id_style="outlook"),
    Person("ci", "Northwind CI", "ci@builds.northwind.example", "UTC", "", id_style="bot"),
]

BY_KEY = {person.key: person for person in PEOPLE}

# Senders that never converse: newsletters, shops, spam.
SERVICES = {
    "dispatch": Person("dispatch", "The Quarterly Dispatch", "newsletter@dispatch.example", "America/New_York",
                       id_style="bot"),
    "digest": Person("digest", "Open Source Digest", "digest@osdigest.example", "UTC", id_style="bot"),
    "nordlys": Person("nordlys", "Nordlys Rejser — Tilbud", "tilbud@nordlys-rejser.example",
                      "Europe/Copenhagen", name_style="b", id_style="bot"),
    "cafe": Person("cafe", "Café Crème", "hello@cafe-creme.example", "Europe/Paris", name_style="q",
                   id_style="bot"),
    "shop": Person("shop", "Paperwise Store", "orders@paperwise.example", "Europe/London", id_style="bot"),
    "prize": Person("prize", "Prize Department", "winner@prize-claims.invalid", "UTC", id_style="bot"),
}


def person(key):
    """A correspondent or service by its short key."""
    return BY_KEY.get(key) or SERVICES[key]
