//! Protobuf's wire format, as much of it as gnostic's messages use: varints, length-delimited
//! fields and doubles, with proto3's rule that default values are not written.

use super::Result;

/// Protobuf wire encoding of one message.
#[derive(Default)]
pub struct Message(pub Vec<u8>);

impl Message {
    pub fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    pub fn key(&mut self, field: u32, wire_type: u8) {
        self.varint(u64::from(field) << 3 | u64::from(wire_type));
    }

    pub fn bytes(&mut self, field: u32, bytes: &[u8]) {
        self.key(field, 2);
        self.varint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    /// A proto3 string: empty strings are not written.
    pub fn string(&mut self, field: u32, value: &str) {
        if !value.is_empty() {
            self.bytes(field, value.as_bytes());
        }
    }

    /// A proto3 bool: `false` is not written.
    pub fn boolean(&mut self, field: u32, value: bool) {
        if value {
            self.key(field, 0);
            self.varint(1);
        }
    }

    pub fn int64(&mut self, field: u32, value: i64) {
        if value != 0 {
            self.key(field, 0);
            self.varint(value as u64);
        }
    }

    pub fn double(&mut self, field: u32, value: f64) {
        if value != 0.0 {
            self.key(field, 1);
            self.0.extend_from_slice(&value.to_le_bytes());
        }
    }

    pub fn message(&mut self, field: u32, encode: impl FnOnce(&mut Message) -> Result) -> Result {
        let mut nested = Message::default();
        encode(&mut nested)?;
        self.bytes(field, &nested.0);
        Ok(())
    }
}

/// A reader of the same wire format, to check what the encoder wrote.
#[cfg(test)]
pub mod read {
    /// Reads the fields of one protobuf message: (field number, wire type, payload).
    pub fn fields(mut bytes: &[u8]) -> Vec<(u32, u8, Vec<u8>)> {
        fn varint(bytes: &mut &[u8]) -> u64 {
            let mut value = 0;
            for shift in (0..64).step_by(7) {
                let byte = bytes[0];
                *bytes = &bytes[1..];
                value |= u64::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    break;
                }
            }
            value
        }
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let key = varint(&mut bytes);
            let wire = (key & 7) as u8;
            let payload = match wire {
                0 => varint(&mut bytes).to_le_bytes().to_vec(),
                1 => {
                    let (head, rest) = bytes.split_at(8);
                    bytes = rest;
                    head.to_vec()
                }
                2 => {
                    let len = varint(&mut bytes) as usize;
                    let (head, rest) = bytes.split_at(len);
                    bytes = rest;
                    head.to_vec()
                }
                other => panic!("wire type {other}"),
            };
            out.push(((key >> 3) as u32, wire, payload));
        }
        out
    }

    pub fn field(bytes: &[u8], number: u32) -> Vec<u8> {
        fields(bytes)
            .into_iter()
            .find(|(n, _, _)| *n == number)
            .unwrap_or_else(|| panic!("no field {number}"))
            .2
    }
}
