import somelib


class MyError(ValueError):
    pass


class DeepError(MyError):
    pass


class LibError(somelib.BaseLibError):
    pass


class TransferError(Exception):
    def __init__(self, room, message):
        super().__init__(message)
        self.room = room
