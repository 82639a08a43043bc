"""Where mailfs's time goes (placeholder while exploring)."""


def where_time_goes(options, servers, mount, rounds):
    return None
