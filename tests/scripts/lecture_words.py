"""A small word list for the lecture-style scripts (names made up for this project)."""

WORDS = """
amara bastien coralie dariel elowen faris gwenna halvard ilse joaquin kestrel lorcan mireille nadir
oriana pascoe quilla ravenna soren talia ulric vesna wilder xanthe yannick zorya adelric brielle
caspian delphine emrys fenna galen hesper idris jessamy kael liesl marisol nikolai ottilie perrin
""".split()
